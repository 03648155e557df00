package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.RerankStatus;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.ragsearch.operator.reconcile.MockCluster.configHash;
import static io.ragsearch.operator.reconcile.MockCluster.env;
import static io.ragsearch.operator.reconcile.MockCluster.events;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The reconciler under JOSDK against fabric8's mock API server (CRUD mode). */
class RagSearchReconcilerTest extends MockOperatorTest {
    private static final long MIB = 1024 * 1024;
    private static final Duration WAIT = Duration.ofSeconds(30);


    @Test
    void createsConfigDeploymentAndServiceWithProbesAndStatus() {
        String ns = "create";
        client.resource(MockCluster.ragSearch(client, ns, "rules", "1500Mi", "2")).create();

        Deployment d = await().atMost(WAIT).until(() -> deployment(ns, "rules"), x -> x != null);
        Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertEquals("/startupz", c.getStartupProbe().getHttpGet().getPath());
        assertEquals("admin", c.getStartupProbe().getHttpGet().getPort().getStrVal());
        assertEquals(120, c.getStartupProbe().getFailureThreshold(), "600 s default startup budget at a 5 s period");
        assertEquals("/livez", c.getLivenessProbe().getHttpGet().getPath());
        assertEquals("/readyz", c.getReadinessProbe().getHttpGet().getPath());
        assertEquals(c.getResources().getLimits().get("memory"), c.getResources().getRequests().get("memory"));
        assertEquals("1", env(d, "RAGSEARCH_RERANK_CONCURRENCY"), "1 before any measurement");
        assertEquals(Boolean.TRUE, c.getSecurityContext().getReadOnlyRootFilesystem());
        assertEquals(Boolean.TRUE, d.getSpec().getTemplate().getSpec().getSecurityContext().getRunAsNonRoot());
        assertEquals("RuntimeDefault", c.getSecurityContext().getSeccompProfile().getType());
        assertEquals("ALL", c.getSecurityContext().getCapabilities().getDrop().get(0));
        assertNotNull(configHash(d));
        assertEquals("RagSearch", d.getMetadata().getOwnerReferences().get(0).getKind());

        ConfigMap config = client.configMaps().inNamespace(ns).withName("rules-config").get();
        assertTrue(config.getData().get("config.yaml").contains("builtin: \"minilm-pair\""), config.getData().toString());
        Service svc = client.services().inNamespace(ns).withName("rules").get();
        assertEquals(8080, svc.getSpec().getPorts().get(0).getPort());

        RagSearch r = await().atMost(WAIT).until(() -> get(ns, "rules"),
                x -> x.getStatus() != null && x.getStatus().observedGeneration != null);
        assertEquals(r.getMetadata().getGeneration(), r.getStatus().observedGeneration);
        assertEquals("http://rules.create.svc:8080/mcp", r.getStatus().endpoint);
        assertEquals(RerankStatus.BASIS_NONE, r.getStatus().rerank.basis);
        assertEquals(1, r.getStatus().rerank.effective);
        assertCondition(r, Conditions.CALIBRATED, "False", "AwaitingMeasurement");
        assertCondition(r, Conditions.READY, "False", "Progressing");
        assertCondition(r, Conditions.INVALID_SPEC, "False", "Valid");
    }

    @Test
    void measurementDrivesConcurrencyAndMemoryChangeRetunesAtOnceThenConfirms() {
        String ns = "tune";
        client.resource(MockCluster.ragSearch(client, ns, "rules", "2000Mi", "4")).create();
        Deployment first = await().atMost(WAIT).until(() -> deployment(ns, "rules"), x -> x != null);

        // A pod of the first rollout measures itself: 400 MiB resident, 300 MiB per run.
        pods.measure("10.1.0.1", 400 * MIB, 300 * MIB, 2000 * MIB, "sha256:aaa");
        MockCluster.readyPod(client, first, "rules-a", "10.1.0.1");
        // budget = 2000 × 0.9 − 400 = 1400 MiB → 4 by memory, 4 by CPU.
        Deployment tuned = await().atMost(WAIT).until(() -> deployment(ns, "rules"),
                x -> "4".equals(env(x, "RAGSEARCH_RERANK_CONCURRENCY")));
        assertNotEquals(configHash(first), configHash(tuned), "a new concurrency rolls the pods");
        RagSearch measured = await().atMost(WAIT).until(() -> get(ns, "rules"),
                x -> x.getStatus().rerank != null && RerankStatus.BASIS_MEASURED.equals(x.getStatus().rerank.basis));
        RerankStatus r = measured.getStatus().rerank;
        assertEquals(4, r.safe);
        assertEquals(4L, r.byMemory);
        assertEquals(4, r.byCpu);
        assertEquals(400 * MIB, r.residentBytes);
        assertEquals(300 * MIB, r.perRunBytes);
        assertEquals("rules-a", r.measuredBy);
        assertEquals("sha256:aaa", r.rerankerDigest);
        assertCondition(measured, Conditions.CALIBRATED, "True", "Measured");
        await().atMost(WAIT).until(() -> !events(client, ns, "ConcurrencyChanged").isEmpty());
        await().atMost(WAIT).until(() -> !events(client, ns, "Calibrated").isEmpty());

        // The limit drops to 1200 Mi: recomputed from the same measurement before any new pod exists.
        RagSearch edit = get(ns, "rules");
        edit.getSpec().resources.memory = "1200Mi";
        client.resource(edit).update();
        Deployment retuned = await().atMost(WAIT).until(() -> deployment(ns, "rules"),
                x -> "2".equals(env(x, "RAGSEARCH_RERANK_CONCURRENCY")));
        assertEquals("1200Mi", retuned.getSpec().getTemplate().getSpec().getContainers().get(0)
                .getResources().getLimits().get("memory").toString());
        RagSearch carried = await().atMost(WAIT).until(() -> get(ns, "rules"),
                x -> RerankStatus.BASIS_PREVIOUS.equals(x.getStatus().rerank.basis));
        assertEquals(2, carried.getStatus().rerank.effective);
        assertEquals(1200 * MIB, carried.getStatus().rerank.memoryLimitBytes);
        assertEquals(2000 * MIB, carried.getStatus().rerank.measuredUnderLimitBytes);
        assertCondition(carried, Conditions.CALIBRATED, "False", "AwaitingNewPods");

        // The new pod's own measurement (a bit more per run) confirms it.
        pods.measure("10.1.0.2", 420 * MIB, 310 * MIB, 1200 * MIB, "sha256:aaa");
        MockCluster.readyPod(client, retuned, "rules-b", "10.1.0.2");
        RagSearch confirmed = await().atMost(WAIT).until(() -> get(ns, "rules"),
                x -> RerankStatus.BASIS_MEASURED.equals(x.getStatus().rerank.basis)
                        && "rules-b".equals(x.getStatus().rerank.measuredBy));
        assertEquals(2, confirmed.getStatus().rerank.effective);
        assertEquals(1200 * MIB, confirmed.getStatus().rerank.measuredUnderLimitBytes);
        assertCondition(confirmed, Conditions.CALIBRATED, "True", "Measured");
        assertCondition(confirmed, Conditions.READY, "True", "AllReplicasReady");
    }

    @Test
    void fixedRequestAboveSafeIsClampedUnlessForced() {
        String ns = "clamp";
        RagSearch spec = MockCluster.ragSearch(client, ns, "rules", "1500Mi", null);
        MockCluster.concurrency(spec, 6, null);
        client.resource(spec).create();
        Deployment first = await().atMost(WAIT).until(() -> deployment(ns, "rules"), x -> x != null);
        pods.measure("10.2.0.1", 500 * MIB, 400 * MIB, 1500 * MIB, "sha256:bbb");
        MockCluster.readyPod(client, first, "rules-a", "10.2.0.1");
        // budget = 1350 − 500 = 850 MiB → 2 by memory; no CPU limit, no CPU cap.
        RagSearch clamped = await().atMost(WAIT).until(() -> get(ns, "rules"),
                x -> Conditions.isTrue(x.getStatus().conditions, Conditions.CONCURRENCY_CLAMPED));
        assertEquals(2, clamped.getStatus().rerank.effective);
        assertNull(clamped.getStatus().rerank.byCpu, "no CPU limit: no CPU cap");
        await().atMost(WAIT).until(() -> !events(client, ns, "ConcurrencyClamped").isEmpty());
        assertEquals("Warning", events(client, ns, "ConcurrencyClamped").get(0).getType());

        RagSearch edit = get(ns, "rules");
        MockCluster.concurrency(edit, 6, true);
        client.resource(edit).update();
        await().atMost(WAIT).until(() -> deployment(ns, "rules"), x -> "6".equals(env(x, "RAGSEARCH_RERANK_CONCURRENCY")));
        RagSearch forced = await().atMost(WAIT).until(() -> get(ns, "rules"),
                x -> !Conditions.isTrue(x.getStatus().conditions, Conditions.CONCURRENCY_CLAMPED)
                        && Integer.valueOf(6).equals(x.getStatus().rerank.effective));
        assertCondition(forced, Conditions.CONCURRENCY_CLAMPED, "False", "Forced");
        await().atMost(WAIT).until(() -> !events(client, ns, "ConcurrencyForced").isEmpty());
    }

    @Test
    void limitTooSmallForOneRunReportsMemoryInsufficient() {
        String ns = "small";
        client.resource(MockCluster.ragSearch(client, ns, "rules", "600Mi", "2")).create();
        Deployment first = await().atMost(WAIT).until(() -> deployment(ns, "rules"), x -> x != null);
        pods.measure("10.3.0.1", 400 * MIB, 300 * MIB, 600 * MIB, "sha256:ccc");
        MockCluster.readyPod(client, first, "rules-a", "10.3.0.1");
        RagSearch r = await().atMost(WAIT).until(() -> get(ns, "rules"),
                x -> x.getStatus() != null && Conditions.isTrue(x.getStatus().conditions, Conditions.MEMORY_INSUFFICIENT));
        assertEquals(1, r.getStatus().rerank.effective);
        assertTrue(r.getStatus().rerank.byMemory < 1);
        String message = Conditions.find(r.getStatus().conditions, Conditions.MEMORY_INSUFFICIENT).orElseThrow().getMessage();
        // (400 + 300) / 0.9 = 777.8 → 778 Mi
        assertTrue(message.contains("at least 778Mi"), message);
        await().atMost(WAIT).until(() -> !events(client, ns, "MemoryInsufficient").isEmpty());
    }

    private static void assertCondition(RagSearch r, String type, String status, String reason) {
        var c = Conditions.find(r.getStatus().conditions, type).orElseThrow(() -> new AssertionError("no " + type));
        assertEquals(status, c.getStatus(), type + ": " + c.getMessage());
        assertEquals(reason, c.getReason(), type + ": " + c.getMessage());
        assertNotNull(c.getLastTransitionTime());
        assertFalse(c.getMessage().isBlank());
    }
}
