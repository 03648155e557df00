package io.ragsearch.operator.reconcile;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.ragsearch.operator.metrics.ReconcileTraces;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A span per reconcile with the RagSearch's namespace, name and outcome (the SDK's own tracer
 * with its in-memory exporter: the OTLP path itself is the server's TracesToCollectorIT).
 */
@EnableKubernetesMockClient(crud = true)
class ReconcileTracesTest {
    static KubernetesClient client;

    @Test
    void everyReconcileIsASpanWithItsOutcome() throws Exception {
        InMemorySpanExporter exported = InMemorySpanExporter.create();
        try (SdkTracerProvider provider = SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exported)).build();
             FakePodAdminEndpoints pods = new FakePodAdminEndpoints()) {
            OperatorRuntime operator = MockCluster.startOperator(client, pods, ReconcileTraces.to(provider.get("test")));
            try {
                client.resource(MockCluster.ragSearch(client, "traced", "good", "1500Mi", "2")).create();
                client.resource(MockCluster.ragSearch(client, "traced", "bad", "lots", "2")).create();
                await().atMost(Duration.ofSeconds(30)).until(() -> outcomeOf(exported.getFinishedSpanItems(), "good") != null
                        && outcomeOf(exported.getFinishedSpanItems(), "bad") != null);
            } finally {
                operator.close();
            }
            List<SpanData> spans = exported.getFinishedSpanItems();
            assertEquals("valid", outcomeOf(spans, "good"));
            assertEquals("invalid", outcomeOf(spans, "bad"));
            SpanData one = spans.stream().filter(s -> "good".equals(s.getAttributes().get(AttributeKey.stringKey("ragsearch.name"))))
                    .findFirst().orElseThrow();
            assertEquals("reconcile RagSearch", one.getName());
            assertEquals("traced", one.getAttributes().get(AttributeKey.stringKey("k8s.namespace.name")));
            assertEquals(1L, one.getAttributes().get(AttributeKey.longKey("ragsearch.generation")));
        }
    }

    private static String outcomeOf(List<SpanData> spans, String name) {
        return spans.stream().filter(s -> name.equals(s.getAttributes().get(AttributeKey.stringKey("ragsearch.name"))))
                .map(s -> s.getAttributes().get(AttributeKey.stringKey("ragsearch.reconcile.outcome"))).findFirst().orElse(null);
    }
}
