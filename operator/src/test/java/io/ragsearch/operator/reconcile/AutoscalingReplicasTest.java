package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.ragsearch.operator.model.Autoscaling;
import io.ragsearch.operator.model.RagSearch;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The replicas rule: the Deployment's replicas come from the RagSearch's spec.replicas, which the
 * scale subresource moves (kubectl scale, the autoscaler the operator owns with spec.autoscaling),
 * and a later reconcile never undoes it. The mock has no scale subresource: the test writes
 * spec.replicas as the real API server does for a /scale write (RealCrdIT checks that one).
 */
class AutoscalingReplicasTest extends MockOperatorTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void anAutoscalerOwnedForTheRagSearchMovesReplicasAndTheOperatorFollows() {
        String ns = "autoscale";
        RagSearch r = MockCluster.ragSearch(client, ns, "rules", "1500Mi", "1");
        r.getSpec().autoscaling = new Autoscaling();
        r.getSpec().autoscaling.minReplicas = 2;
        r.getSpec().autoscaling.maxReplicas = 4;
        r.getSpec().autoscaling.targetCPUUtilizationPercentage = 60;
        r.getSpec().autoscaling.scaleDownStabilizationSeconds = 30;
        client.resource(r).create();

        HorizontalPodAutoscaler hpa = await().atMost(WAIT).until(() -> autoscaler(ns, "rules"), x -> x != null);
        assertEquals("RagSearch", hpa.getSpec().getScaleTargetRef().getKind());
        assertEquals(RagSearch.API_VERSION, hpa.getSpec().getScaleTargetRef().getApiVersion());
        assertEquals("rules", hpa.getSpec().getScaleTargetRef().getName());
        assertEquals(2, hpa.getSpec().getMinReplicas());
        assertEquals(4, hpa.getSpec().getMaxReplicas());
        assertEquals("cpu", hpa.getSpec().getMetrics().get(0).getResource().getName());
        assertEquals(60, hpa.getSpec().getMetrics().get(0).getResource().getTarget().getAverageUtilization());
        assertEquals(30, hpa.getSpec().getBehavior().getScaleDown().getStabilizationWindowSeconds());
        assertEquals("RagSearch", hpa.getMetadata().getOwnerReferences().get(0).getKind());

        // no spec.replicas: the pods start at minReplicas; status carries what the scale subresource reads
        await().atMost(WAIT).until(() -> replicas(ns), x -> x == 2);
        RagSearch status = await().atMost(WAIT).until(() -> get(ns, "rules"),
                x -> x.getStatus() != null && x.getStatus().selector != null);
        assertEquals("app.kubernetes.io/name=ragsearch,app.kubernetes.io/instance=rules", status.getStatus().selector);
        assertEquals(2, status.getStatus().replicas);

        // the autoscaler's write through /scale: spec.replicas 3
        RagSearch scaled = get(ns, "rules");
        scaled.getSpec().replicas = 3;
        client.resource(scaled).update();
        await().atMost(WAIT).until(() -> replicas(ns), x -> x == 3);
        await().atMost(WAIT).until(() -> get(ns, "rules").getStatus().replicas, x -> x == 3);
        // later reconciles (a pod event, the periodic one) keep it: nothing but spec.replicas sets the number
        Deployment d = MockCluster.deployment(client, ns, "rules");
        MockCluster.readyPod(client, d, "rules-a", "10.9.0.1");
        long generation = get(ns, "rules").getMetadata().getGeneration();
        await().atMost(WAIT).untilAsserted(() -> assertEquals(1, get(ns, "rules").getStatus().readyReplicas,
                () -> "status " + io.fabric8.kubernetes.client.utils.Serialization.asJson(get(ns, "rules").getStatus())));
        assertEquals(3, replicas(ns));
        assertEquals(3, get(ns, "rules").getSpec().replicas, "the operator never writes spec.replicas");
        assertEquals(generation, get(ns, "rules").getMetadata().getGeneration());

        // autoscaling removed: the autoscaler goes, the replicas stay where it left them
        RagSearch manual = get(ns, "rules");
        manual.getSpec().autoscaling = null;
        client.resource(manual).update();
        assertNull(get(ns, "rules").getSpec().autoscaling);
        await().atMost(WAIT).untilAsserted(() -> assertNull(autoscaler(ns, "rules"), () -> "still there; RagSearch "
                + io.fabric8.kubernetes.client.utils.Serialization.asJson(get(ns, "rules"))));
        assertEquals(3, replicas(ns));
        assertNull(autoscaler(ns, "rules"));
    }

    private static HorizontalPodAutoscaler autoscaler(String ns, String name) {
        return client.autoscaling().v2().horizontalPodAutoscalers().inNamespace(ns).withName(name).get();
    }

    private static int replicas(String ns) {
        Deployment d = MockCluster.deployment(client, ns, "rules");
        return d == null || d.getSpec().getReplicas() == null ? -1 : d.getSpec().getReplicas();
    }
}
