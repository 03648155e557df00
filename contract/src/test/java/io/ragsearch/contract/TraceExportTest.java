package io.ragsearch.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TraceExportTest {

    @Test
    void offUnlessAVariableAsksForExport() {
        assertFalse(TraceExport.requested(Map.of()));
        assertFalse(TraceExport.requested(Map.of("OTEL_SERVICE_NAME", "x", "OTEL_TRACES_SAMPLER", "always_on")));
        assertFalse(TraceExport.requested(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "  ")));
        assertTrue(TraceExport.requested(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318")));
        assertTrue(TraceExport.requested(Map.of("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://collector:4318/v1/traces")));
        assertTrue(TraceExport.requested(Map.of("OTEL_TRACES_EXPORTER", "otlp")));
        assertTrue(TraceExport.requested(Map.of("OTEL_TRACES_EXPORTER", "console")));
    }

    @Test
    void anExplicitNoWinsOverAnEndpoint() {
        assertFalse(TraceExport.requested(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318", "OTEL_TRACES_EXPORTER", "none")));
        assertFalse(TraceExport.requested(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318", "OTEL_SDK_DISABLED", "TRUE")));
        assertTrue(TraceExport.requested(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318", "OTEL_SDK_DISABLED", "false")));
    }

    @Test
    void variablesBecomeSdkPropertiesOverOurDefaults() {
        Map<String, String> p = TraceExport.properties(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", " http://c:4318 ", "OTEL_BSP_SCHEDULE_DELAY", "100",
                "PATH", "/bin"), "ragsearch-server");
        assertEquals("http://c:4318", p.get("otel.exporter.otlp.endpoint"));
        assertEquals("100", p.get("otel.bsp.schedule.delay"));
        assertEquals("ragsearch-server", p.get("otel.service.name"));
        assertEquals("http/protobuf", p.get("otel.exporter.otlp.protocol"));
        assertEquals("none", p.get("otel.metrics.exporter"), "metrics stay Prometheus");
        assertEquals("none", p.get("otel.logs.exporter"));
        assertFalse(p.containsKey("path"));
        assertEquals("mine", TraceExport.properties(Map.of("OTEL_SERVICE_NAME", "mine"), "ragsearch-server").get("otel.service.name"));
        assertFalse(TraceExport.properties(Map.of("OTEL_RESOURCE_ATTRIBUTES", "team=a, service.name=mine"), "ragsearch-server")
                .containsKey("otel.service.name"), "the resource's own service.name is kept");
    }

    @Test
    void grpcIsRefusedWithItsReason() {
        ContractException e = assertThrows(ContractException.class,
                () -> TraceExport.properties(Map.of("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "grpc"), "s"));
        assertEquals("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=grpc is not supported: traces are sent as OTLP over HTTP (http/protobuf); "
                + "unset it or set http/protobuf", e.getMessage());
    }
}
