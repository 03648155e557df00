package io.ragsearch.telemetry;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TelemetryTest {

    @Test
    void withoutOtelVariablesNothingIsBuiltAndNoThreadStarts() {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        Telemetry t = Telemetry.start(Map.of("OTEL_SERVICE_NAME", "x"), "ragsearch-server", "test");
        assertSame(Telemetry.OFF, t);
        assertFalse(t.exporting());
        assertFalse(t.tracer().spanBuilder("s").startSpan().isRecording());
        assertTrue(Thread.getAllStackTraces().keySet().stream().filter(th -> !before.contains(th))
                .noneMatch(th -> th.getName().contains("BatchSpanProcessor")), "no exporter thread");
    }

    @Test
    void anEndpointBuildsARecordingTracer() {
        // nothing listens there: building the SDK sends nothing; close() gives up on the flush in its bound
        try (Telemetry t = Telemetry.start(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9"), "ragsearch-server", "test")) {
            assertTrue(t.exporting());
            assertTrue(t.tracer().spanBuilder("s").startSpan().isRecording());
        }
    }
}
