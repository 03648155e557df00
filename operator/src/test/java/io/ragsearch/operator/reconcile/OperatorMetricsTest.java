package io.ragsearch.operator.reconcile;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.operator.model.RagSearch;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The operator's /metrics: reconciles by outcome and duration, and the current decision per RagSearch. */
class OperatorMetricsTest extends MockOperatorTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void reconcilesAndDecisionsAreCounted() {
        client.resource(MockCluster.ragSearch(client, "metrics", "good", "1500Mi", "2")).create();
        RagSearch bad = MockCluster.ragSearch(client, "metrics", "bad", "lots", "2");
        client.resource(bad).create();

        await().atMost(WAIT).until(() -> operator.metrics().render(),
                m -> m.contains("ragsearch_operator_rerank_concurrency{namespace=\"metrics\",name=\"good\"} 1")
                        && m.contains("ragsearch_operator_spec_valid{namespace=\"metrics\",name=\"bad\"} 0")
                        && m.contains("ragsearch_operator_spec_valid{namespace=\"metrics\",name=\"good\"} 1"));
        String text = operator.metrics().render();
        assertTrue(count(text, "ragsearch_operator_reconciles_total\\{outcome=\"valid\"\\} (\\d+)") >= 1, text);
        assertTrue(count(text, "ragsearch_operator_reconciles_total\\{outcome=\"invalid\"\\} (\\d+)") >= 1, text);
        assertTrue(count(text, "ragsearch_operator_reconcile_seconds_count (\\d+)") >= 2, text);
        assertTrue(text.contains("ragsearch_operator_rerank_safe_concurrency{namespace=\"metrics\",name=\"good\"} -1"),
                "no measurement yet: " + text);
        assertTrue(text.contains("# TYPE ragsearch_operator_reconcile_seconds histogram"), text);
    }

    private static long count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }
}
