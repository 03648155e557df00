package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.ragsearch.operator.model.EmbeddingStatus;
import io.ragsearch.operator.model.RagSearch;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A first start embeds its articles after its startup probe, behind readiness (issue 28): the
 * operator reads the progress from the not-ready pods' /info (real HTTP) and shows it in the
 * status and the Ready condition, and drops it once the pods are ready.
 */
class EmbeddingProgressStatusTest extends MockOperatorTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void theStatusShowsThePodFurthestBehindUntilEveryPodIsReady() {
        String ns = "embedding";
        RagSearch r = MockCluster.ragSearch(client, ns, "rules", "1500Mi", "2");
        r.getSpec().replicas = 2;
        client.resource(r).create();
        Deployment d = await().atMost(WAIT).until(() -> deployment(ns, "rules"), x -> x != null);

        pods.info("10.8.0.1", embedding(12_800, 20_000, 1_500L));
        pods.info("10.8.0.2", embedding(640, 20_000, null));
        MockCluster.notReadyPod(client, d, "rules-a", "10.8.0.1");
        MockCluster.notReadyPod(client, d, "rules-b", "10.8.0.2");
        EmbeddingStatus shown = await().atMost(WAIT).until(() -> status(ns), s -> s != null && s.pods != null && s.pods == 2);
        assertEquals("rules-b", shown.pod, "the pod furthest behind");
        assertEquals(640, shown.articlesEmbedded);
        assertEquals(20_000, shown.articlesTotal);
        assertNull(shown.secondsLeft, "no rate measured yet on that pod");
        Condition ready = condition(ns);
        assertEquals("False", ready.getStatus());
        assertTrue(ready.getMessage().contains("rules-b embedding article vectors: 640 of 20000 (2 pods embedding)"), ready.getMessage());

        // Pod b moves on and measures a rate; pod a finishes and turns ready.
        pods.info("10.8.0.2", embedding(9_000, 20_000, 2_100L));
        pods.info("10.8.0.1", "{\"version\":\"test\",\"embedding\":{\"articlesEmbedded\":20000,\"articlesTotal\":20000,"
                + "\"secondsLeft\":0,\"state\":\"done\"}}");
        client.pods().inNamespace(ns).withName("rules-a").delete();
        MockCluster.readyPod(client, d, "rules-a2", "10.8.0.1");
        EmbeddingStatus later = await().atMost(WAIT).until(() -> status(ns), s -> s != null && s.pods != null && s.pods == 1
                && s.articlesEmbedded == 9_000);
        assertEquals("rules-b", later.pod);
        assertEquals(2_100L, later.secondsLeft);
        assertTrue(condition(ns).getMessage().contains("9000 of 20000, about 2100 s left"), condition(ns).getMessage());

        client.pods().inNamespace(ns).withName("rules-b").delete();
        MockCluster.readyPod(client, d, "rules-b2", "10.8.0.2");
        await().atMost(WAIT).until(() -> {
            RagSearch now = get(ns, "rules");
            return now != null && now.getStatus() != null && now.getStatus().embedding == null
                    && "True".equals(condition(ns).getStatus());
        });
    }

    private static String embedding(int embedded, int total, Long secondsLeft) {
        return "{\"version\":\"test\",\"embedding\":{\"articlesEmbedded\":" + embedded + ",\"articlesTotal\":" + total
                + ",\"secondsLeft\":" + secondsLeft + ",\"project\":\"handbook\",\"state\":\"embedding\"}}";
    }

    private static EmbeddingStatus status(String ns) {
        RagSearch r = get(ns, "rules");
        return r == null || r.getStatus() == null ? null : r.getStatus().embedding;
    }

    private static Condition condition(String ns) {
        RagSearch r = get(ns, "rules");
        return r == null || r.getStatus() == null ? null
                : Conditions.find(r.getStatus().conditions, Conditions.READY).orElse(null);
    }

    @Test
    void theSummaryIsThePodWithTheSmallestShare() {
        var a = new EmbeddingReader.PodEmbedding("a", new io.ragsearch.operator.podadmin.EmbeddingState(500, 1_000, 10L, "embedding"));
        var b = new EmbeddingReader.PodEmbedding("b", new io.ragsearch.operator.podadmin.EmbeddingState(900, 4_000, 99L, "embedding"));
        EmbeddingStatus s = EmbeddingReader.summary(List.of(a, b));
        assertEquals("b", s.pod);
        assertEquals(2, s.pods);
        assertNull(EmbeddingReader.summary(List.of()));
    }
}
