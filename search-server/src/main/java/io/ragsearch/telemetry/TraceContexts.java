package io.ragsearch.telemetry;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.Map;

/**
 * The context a request continues, from W3C trace context ({@code traceparent},
 * {@code tracestate}) in the request's {@code params._meta} or in its HTTP headers.
 *
 * <p>{@code _meta} wins when it carries a valid {@code traceparent}: it is what the MCP
 * semantic conventions tell a client to propagate, it is set for this one request by the MCP
 * client itself (a header may belong to the HTTP hop before us, e.g. an instrumented proxy's own
 * span), and it is the only carrier on stdio. The headers are the fallback; with neither the
 * call starts a trace of its own.
 */
public final class TraceContexts {

    public static final String TRACEPARENT = "traceparent";
    public static final String TRACESTATE = "tracestate";

    private static final TextMapGetter<Map<String, ?>> MAP = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, ?> carrier) {
            return carrier.keySet();
        }

        @Override
        public String get(Map<String, ?> carrier, String key) {
            return carrier != null && carrier.get(key) instanceof String s ? s : null;
        }
    };

    private TraceContexts() {
    }

    /** @param meta the request's {@code _meta} (null: none); @param headers trace headers by lower-case name (null: none) */
    public static Context parent(Map<String, ?> meta, Map<String, ?> headers) {
        Context fromMeta = extract(meta);
        if (Span.fromContext(fromMeta).getSpanContext().isValid()) {
            return fromMeta;
        }
        return extract(headers);
    }

    private static Context extract(Map<String, ?> carrier) {
        if (carrier == null || !(carrier.get(TRACEPARENT) instanceof String)) {
            return Context.root();
        }
        return W3CTraceContextPropagator.getInstance().extract(Context.root(), carrier, MAP);
    }
}
