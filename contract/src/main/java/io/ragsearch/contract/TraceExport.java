package io.ragsearch.contract;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Whether the standard OpenTelemetry variables ask a process (the server or the operator) to
 * export traces, and the SDK properties they become. Export is off unless a variable asks for
 * it: with none set the processes keep a no-op tracer (no exporter, no thread, no queue), so a
 * pod that nobody wired to a collector pays nothing and sends nothing to a default address.
 * docs/telemetry.md lists the variables.
 */
public final class TraceExport {

    /** The only OTLP protocol this build sends (the JDK's HTTP client; gRPC would need a second HTTP stack). */
    public static final String PROTOCOL = "http/protobuf";

    private TraceExport() {
    }

    /**
     * Export is asked for by an OTLP endpoint (all signals' or the traces') or a traces exporter
     * other than {@code none}; {@code OTEL_SDK_DISABLED=true} wins over both.
     */
    public static boolean requested(Map<String, String> env) {
        if ("true".equalsIgnoreCase(given(env, "OTEL_SDK_DISABLED"))) {
            return false;
        }
        String exporter = given(env, "OTEL_TRACES_EXPORTER");
        if (exporter != null) {
            return !exporter.equalsIgnoreCase("none");
        }
        return given(env, "OTEL_EXPORTER_OTLP_ENDPOINT") != null || given(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != null;
    }

    /**
     * The SDK's properties for {@code env}: every {@code OTEL_*} variable under its property
     * name ({@code OTEL_EXPORTER_OTLP_ENDPOINT} is {@code otel.exporter.otlp.endpoint}), over
     * these defaults: the service name given (unless OTEL_RESOURCE_ATTRIBUTES names one), OTLP over HTTP, and no metrics or logs exporter
     * (metrics stay Prometheus, on /metrics). A gRPC protocol is refused with its reason.
     */
    public static Map<String, String> properties(Map<String, String> env, String serviceName) {
        Map<String, String> p = new TreeMap<>();
        String resource = given(env, "OTEL_RESOURCE_ATTRIBUTES");
        if (resource == null || !resource.matches("(^|.*,)\\s*service\\.name\\s*=.*")) {
            p.put("otel.service.name", serviceName);
        }
        p.put("otel.exporter.otlp.protocol", PROTOCOL);
        p.put("otel.metrics.exporter", "none");
        p.put("otel.logs.exporter", "none");
        env.forEach((name, value) -> {
            if (name.startsWith("OTEL_") && value != null && !value.isBlank()) {
                p.put(name.toLowerCase(Locale.ROOT).replace('_', '.'), value.strip());
            }
        });
        p.forEach((name, value) -> {
            if (name.startsWith("otel.exporter.otlp.") && name.endsWith("protocol") && !value.equals(PROTOCOL)) {
                throw new ContractException(name.toUpperCase(Locale.ROOT).replace('.', '_') + "=" + value
                        + " is not supported: traces are sent as OTLP over HTTP (" + PROTOCOL + "); unset it or set " + PROTOCOL);
            }
        });
        return p;
    }

    private static String given(Map<String, String> env, String name) {
        String v = env.get(name);
        return v == null || v.isBlank() ? null : v.strip();
    }
}
