package io.ragsearch.operator.metrics;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.ragsearch.contract.TraceExport;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A span per reconcile ("reconcile RagSearch": namespace, name, generation, outcome), exported
 * over OTLP when the standard OTEL_* variables ask for it ({@link TraceExport}, the server's
 * rule), else a no-op tracer with nothing built. The metrics stay Prometheus ({@link OperatorMetrics}).
 */
public final class ReconcileTraces implements AutoCloseable {

    static final String SCOPE = "io.ragsearch.operator";
    /** {@code service.name} unless OTEL_SERVICE_NAME says otherwise. */
    public static final String SERVICE_NAME = "ragsearch-operator";
    public static final ReconcileTraces OFF = new ReconcileTraces(null, OpenTelemetry.noop().getTracer(SCOPE));

    // Semantic conventions: Kubernetes resource attributes, and error.type.
    static final AttributeKey<String> K8S_NAMESPACE = AttributeKey.stringKey("k8s.namespace.name");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    // Ours.
    static final AttributeKey<String> NAME = AttributeKey.stringKey("ragsearch.name");
    static final AttributeKey<Long> GENERATION = AttributeKey.longKey("ragsearch.generation");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("ragsearch.reconcile.outcome");

    private final OpenTelemetrySdk sdk;
    private final Tracer tracer;

    private ReconcileTraces(OpenTelemetrySdk sdk, Tracer tracer) {
        this.sdk = sdk;
        this.tracer = tracer;
    }

    /** @param env the operator's variables: OTEL_* configure the export (docs/telemetry.md) */
    public static ReconcileTraces start(Map<String, String> env, String version) {
        if (!TraceExport.requested(env)) {
            return OFF;
        }
        Map<String, String> properties = TraceExport.properties(env, SERVICE_NAME);
        OpenTelemetrySdk sdk = AutoConfiguredOpenTelemetrySdk.builder()
                .addPropertiesCustomizer(config -> properties)
                .disableShutdownHook() // close() flushes once the operator has stopped reconciling
                .build()
                .getOpenTelemetrySdk();
        return new ReconcileTraces(sdk, sdk.getTracer(SCOPE, version));
    }

    /** Spans to {@code tracer} (tests hand in an SDK of their own). */
    public static ReconcileTraces to(Tracer tracer) {
        return new ReconcileTraces(null, tracer);
    }

    public Span begin(String namespace, String name, Long generation) {
        Span span = tracer.spanBuilder("reconcile RagSearch").setAttribute(K8S_NAMESPACE, namespace).setAttribute(NAME, name).startSpan();
        if (generation != null) {
            span.setAttribute(GENERATION, generation);
        }
        return span;
    }

    /** Ends the span with the reconcile's outcome (valid, invalid, error; the metrics' labels) and its exception, if any. */
    public static void end(Span span, String outcome, Throwable failure) {
        span.setAttribute(OUTCOME, outcome);
        if (failure != null) {
            span.setAttribute(ERROR_TYPE, failure.getClass().getName());
            span.setStatus(StatusCode.ERROR);
        }
        span.end();
    }

    public boolean exporting() {
        return sdk != null;
    }

    @Override
    public void close() {
        if (sdk != null) {
            sdk.shutdown().join(5, TimeUnit.SECONDS);
        }
    }
}
