package io.ragsearch.telemetry;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.ragsearch.contract.TraceExport;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The process's tracing: the OpenTelemetry SDK configured by the standard {@code OTEL_*}
 * variables when they ask for export ({@link TraceExport#requested}), else a no-op tracer (no
 * exporter, no thread, no queue: nothing is built). Never installed as the global instance:
 * the classes that trace are handed {@link #tracer()}.
 */
public final class Telemetry implements AutoCloseable {

    /** The instrumentation scope the server's spans carry. */
    public static final String SCOPE = "io.ragsearch.server";
    /** What every class traces with when nothing asks for export. */
    public static final Tracer OFF_TRACER = OpenTelemetry.noop().getTracer(SCOPE);
    public static final Telemetry OFF = new Telemetry(null, OFF_TRACER);

    /** A last batch gets this long to reach the collector when the process stops (within a pod's grace). */
    private static final long FLUSH_SECONDS = 5;

    private final OpenTelemetrySdk sdk;
    private final Tracer tracer;

    private Telemetry(OpenTelemetrySdk sdk, Tracer tracer) {
        this.sdk = sdk;
        this.tracer = tracer;
    }

    /**
     * @param env         the process's variables (or a test's)
     * @param serviceName {@code service.name} unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES say otherwise
     */
    public static Telemetry start(Map<String, String> env, String serviceName, String version) {
        if (!TraceExport.requested(env)) {
            return OFF;
        }
        Map<String, String> properties = TraceExport.properties(env, serviceName);
        OpenTelemetrySdk sdk = AutoConfiguredOpenTelemetrySdk.builder()
                .addPropertiesCustomizer(config -> properties) // the given map, not only the process's variables
                .disableShutdownHook() // close() flushes, after the listeners have stopped
                .build()
                .getOpenTelemetrySdk();
        return new Telemetry(sdk, sdk.getTracer(SCOPE, version));
    }

    public Tracer tracer() {
        return tracer;
    }

    public boolean exporting() {
        return sdk != null;
    }

    @Override
    public void close() {
        if (sdk != null) {
            sdk.shutdown().join(FLUSH_SECONDS, TimeUnit.SECONDS);
        }
    }
}
