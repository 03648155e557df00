package io.ragsearch.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Context;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TraceContextsTest {

    private static final String META = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    private static final String HEADER = "00-4bf92f3577b34a4b8d0e1f2a3c4d5e01-00f067aa0ba902b7-01";

    private static SpanContext of(Context c) {
        return Span.fromContext(c).getSpanContext();
    }

    @Test
    void metaWinsOverTheHeader() {
        SpanContext c = of(TraceContexts.parent(Map.of("traceparent", META, "tracestate", "k=v"), Map.of("traceparent", HEADER)));
        assertEquals("0af7651916cd43dd8448eb211c80319c", c.getTraceId());
        assertEquals("b7ad6b7169203331", c.getSpanId());
        assertEquals("v", c.getTraceState().get("k"));
    }

    @Test
    void theHeaderServesWhenMetaHasNoValidTraceparent() {
        for (Map<String, Object> meta : new Map[] {null, Map.of(), Map.of("traceparent", "garbage"), Map.of("traceparent", 42)}) {
            assertEquals("4bf92f3577b34a4b8d0e1f2a3c4d5e01", of(TraceContexts.parent(meta, Map.of("traceparent", HEADER))).getTraceId());
        }
    }

    @Test
    void neitherStartsATraceOfItsOwn() {
        assertFalse(of(TraceContexts.parent(null, null)).isValid());
        assertFalse(of(TraceContexts.parent(Map.of("traceparent", "00-00000000000000000000000000000000-00f067aa0ba902b7-01"),
                Map.of("traceparent", "not one"))).isValid());
    }
}
