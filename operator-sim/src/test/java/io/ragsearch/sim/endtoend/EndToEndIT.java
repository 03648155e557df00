package io.ragsearch.sim.endtoend;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.modelcontextprotocol.spec.McpSchema;
import io.ragsearch.contract.budget.RerankBudget;
import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.RerankStatus;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.naming.PodLayout;
import io.ragsearch.operator.podadmin.HttpPodAdminClient;
import io.ragsearch.operator.reconcile.Conditions;
import io.ragsearch.operator.reconcile.ResizePlanner;
import io.ragsearch.sim.cluster.Figures;
import io.ragsearch.sim.cluster.RealClusterExtension;
import io.ragsearch.sim.cluster.SearchTraffic;
import io.ragsearch.sim.cluster.TestCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;

import static io.ragsearch.operator.reconcile.MockCluster.configHash;
import static io.ragsearch.operator.reconcile.MockCluster.env;
import static io.ragsearch.sim.cluster.Figures.since;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rerank budget's loop on the real control plane: the operator (in this JVM, as it writes in a
 * cluster) against the API server, the real controllers making the Deployment's ReplicaSets and
 * pods, and our node agent running real ragsearch-server processes for them under their memory
 * limits. Each scenario starts from a RagSearch of its own in a namespace of its own; that a
 * deleted RagSearch takes every child and process with it is {@link RealClusterEndToEndIT}'s, and
 * a memory change alone is resized in place there too.
 */
@ExtendWith(RealClusterExtension.class)
class EndToEndIT {
    static final String NAME = "handbook";
    static final long MIB = 1024L * 1024;
    static final String HANDBOOK = """
            apiVersion: ragsearch.io/v1alpha1
            kind: RagSearch
            metadata: {name: handbook}
            spec:
              image: ragsearch/search-server:e2e
              replicas: 1
              resources: {memory: 1500Mi}
              models:
                reranker: {builtin: minilm-pair, maxSeqLen: 128}
              projects:
                - name: handbook-en
                  description: the sample handbook
                  language: en
                  source: {configMap: handbook-docs}
              startupTimeoutSeconds: 300
            """;
    static final Figures FIGURES = new Figures("E2E");

    @AfterAll
    static void summary() {
        FIGURES.printSummary();
    }

    /** What each scenario starts from: the handbook at 1500 Mi, Ready with its pod's own measurement on every pod. */
    record Started(RagSearch calibrated, RagSearch ready, SearchTraffic traffic) {
    }

    static Started handbookReady(TestCluster cluster) {
        cluster.handbookDocs("handbook-docs");
        cluster.startOperator(Duration.ofSeconds(30));
        long t0 = System.nanoTime();
        cluster.create(HANDBOOK);
        RagSearch calibrated = await("the handbook Calibrated").atMost(Duration.ofMinutes(6)).pollInterval(Duration.ofMillis(250))
                .until(() -> cluster.ragSearch(NAME),
                        x -> x.getStatus() != null && Conditions.isTrue(x.getStatus().conditions, Conditions.CALIBRATED));
        FIGURES.note("apply → Calibrated: %.1f s", since(t0));
        RagSearch ready = await("the handbook Ready with the measured concurrency on every pod").atMost(Duration.ofMinutes(6))
                .pollInterval(Duration.ofMillis(250)).until(() -> cluster.ragSearch(NAME),
                        x -> Conditions.isTrue(x.getStatus().conditions, Conditions.READY)
                                && x.getStatus().rerank.effective.equals(x.getStatus().rerank.safe) && currentPodsOnly(cluster));
        FIGURES.note("apply → Ready with the measured concurrency on every pod: %.1f s", since(t0));
        return new Started(calibrated, ready, cluster.traffic(NAME));
    }

    /** The status carries the pods' own measurement, the Deployment its concurrency, and a search is answered. */
    static void assertMeasuredAndServing(TestCluster cluster, Started started) throws Exception {
        FIGURES.note("memory limits: %s", cluster.agent().memoryLimits());
        RagSearch ready = started.ready();

        RerankStatus m = ready.getStatus().rerank;
        FIGURES.note("measurement: method %s, resident %d MiB, per run %d MiB, under limit %s, by %s → safe %d (by memory %d), effective %d",
                m.method, m.residentBytes / MIB, m.perRunBytes / MIB, m.measuredUnderLimitBytes == null ? "none" : m.measuredUnderLimitBytes / MIB + " MiB",
                m.measuredBy, m.safe, m.byMemory, m.effective);
        assertEquals(RerankStatus.BASIS_MEASURED, m.basis);
        assertTrue(m.perRunBytes > 0 && m.residentBytes > 0);
        if (cluster.agent().memoryLimitsEnforced()) {
            assertEquals("cgroup-v1", m.method, "the pod measured itself under its own limit");
            assertEquals(1500 * MIB, m.measuredUnderLimitBytes);
        }
        // The numbers come from a pod's own /calibration.
        String ip = cluster.readyEndpoints(NAME).get(0);
        Calibration own = new HttpPodAdminClient().calibration(ip, PodLayout.ADMIN_PORT).orElseThrow();
        assertEquals(m.rerankerDigest, own.rerankerDigest());
        // The most conservative of the pods' measurements is kept: it allows no more than this pod's own
        // (and, where both allow the same, costs at least as much), whichever of its two numbers is larger.
        var limits = new RerankBudget.Limits(1500 * MIB, null, RerankBudget.DEFAULT_HEADROOM_PERCENT);
        int ownSafe = RerankBudget.safe(limits, new RerankBudget.Measurement(
                own.residentBytes(), own.perRunBytes(), Math.max(1, own.intraOpThreads()))).safe();
        assertTrue(m.safe < ownSafe || (m.safe == ownSafe && m.residentBytes + m.perRunBytes >= own.residentBytes() + own.perRunBytes()),
                "the status keeps the most conservative measurement of this key: kept safe " + m.safe + ", this pod's " + ownSafe);
        assertEquals(Integer.toString(m.effective), env(cluster.deployment(NAME), "RAGSEARCH_RERANK_CONCURRENCY"));
        assertTrue(started.calibrated().getStatus().rerank.measuredBy != null);

        McpSchema.CallToolResult result = started.traffic().search("handbook-en", "how many days of annual leave do I get");
        assertFalse(Boolean.TRUE.equals(result.isError()), String.valueOf(result.content()));
        String text = ((McpSchema.TextContent) result.content().get(0)).text();
        assertTrue(text.toLowerCase().contains("leave"), text);
        FIGURES.note("a search through pod %s answered: %s", ip, text.lines().findFirst().orElse(""));
    }

    /**
     * A RagSearch becomes ready with its pods' own measurement and serves; then a memory change
     * that comes with another change rolls (a memory change alone is resized in place on this
     * cluster: {@link RealClusterEndToEndIT}): the concurrency is recomputed at once from the
     * previous measurement, and the new pods' own measurement confirms it. One test, not two: the
     * second would start from the same ready RagSearch, a minute of pod starts on two cores.
     */
    @Test
    void aRagSearchBecomesReadyWithItsOwnMeasurementAndAMemoryChangeThatRollsRetunesAtOnce(TestCluster cluster) throws Exception {
        Started started = handbookReady(cluster);
        assertMeasuredAndServing(cluster, started);
        SearchTraffic traffic = started.traffic();
        int effectiveBefore = started.ready().getStatus().rerank.effective;
        String hashBefore = configHash(cluster.deployment(NAME));
        traffic.keepSearching("handbook-en", "expense report deadline");
        traffic.awaitServed(5);

        long start = System.nanoTime();
        cluster.admin().resources(RagSearch.class).inNamespace(cluster.namespace()).withName(NAME).edit(r -> {
            r.getSpec().resources.memory = "1000Mi";
            r.getSpec().projects.get(0).description = "the sample handbook: leave, expenses, IT security";
            return r;
        });

        RagSearch retuned = await("status.rerank recomputed for 1000 Mi").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> cluster.ragSearch(NAME), x -> x.getStatus().rerank.memoryLimitBytes == 1000 * MIB);
        double tRetune = since(start);
        assertEquals(RerankStatus.BASIS_PREVIOUS, retuned.getStatus().rerank.basis, "recomputed before any new pod measured");
        assertNotEquals(hashBefore, configHash(cluster.deployment(NAME)), "the pods roll");
        await("an event saying the limits roll with the other changes").atMost(Duration.ofSeconds(30)).until(() ->
                cluster.admin().v1().events().inNamespace(cluster.namespace()).list().getItems().stream()
                        .anyMatch(e -> ResizePlanner.REASON_OTHER_CHANGES.equals(e.getReason())));
        FIGURES.note("limit 1500 → 1000 Mi with a new description: recomputed from the previous measurement after %.2f s: concurrency %d → %d",
                tRetune, effectiveBefore, retuned.getStatus().rerank.effective);

        RagSearch confirmed = await("the new pods' own measurement under 1000 Mi").atMost(Duration.ofMinutes(6))
                .pollInterval(Duration.ofMillis(250)).until(() -> cluster.ragSearch(NAME),
                        x -> RerankStatus.BASIS_MEASURED.equals(x.getStatus().rerank.basis)
                                && x.getStatus().rerank.calibrationKey.equals(retuned.getStatus().rerank.calibrationKey));
        FIGURES.note("new pod's own measurement after %.1f s: resident %d MiB, per run %d MiB, under %s → concurrency %d",
                since(start), confirmed.getStatus().rerank.residentBytes / MIB, confirmed.getStatus().rerank.perRunBytes / MIB,
                confirmed.getStatus().rerank.measuredUnderLimitBytes == null ? "no limit" : confirmed.getStatus().rerank.measuredUnderLimitBytes / MIB + " MiB",
                confirmed.getStatus().rerank.effective);
        await("the roll finished: Ready, only pods of the final template").atMost(Duration.ofMinutes(6)).pollInterval(Duration.ofMillis(250))
                .until(() -> Conditions.isTrue(cluster.ragSearch(NAME).getStatus().conditions, Conditions.READY) && currentPodsOnly(cluster));
        FIGURES.note("roll finished (only pods of the final template left) after %.1f s", since(start));
        traffic.awaitServed(5);
        traffic.stopSearching();
        FIGURES.note("searches during the roll: %d served, %d failed %s", traffic.served.get(), traffic.failed.get(),
                traffic.failures.isEmpty() ? "" : traffic.failures.subList(0, Math.min(3, traffic.failures.size())));
        assertTrue(traffic.served.get() > 0);
        assertEquals(0, traffic.failed.get(), String.valueOf(traffic.failures));
    }

    @Test
    void aLimitThatCannotFitOneRerankReportsMemoryInsufficientAtOnceAndTheServiceStaysUp(TestCluster cluster) throws Exception {
        Started started = handbookReady(cluster);
        SearchTraffic traffic = started.traffic();
        long start = System.nanoTime();
        // 560 Mi: below what one rerank needs beside the resident memory (about 564 MiB measured under 1000 Mi),
        // above what the pod needs to start and calibrate. At 400 Mi the pod is now OOM-killed by its own
        // calibration's first worst-case run (it was not before the embedding moved behind the startup
        // probe; the cause is open, see docs/memory.md). Below the running pods' use, so it rolls, not in place.
        cluster.admin().resources(RagSearch.class).inNamespace(cluster.namespace()).withName(NAME).edit(r -> {
            r.getSpec().resources.memory = "560Mi";
            return r;
        });
        RagSearch insufficient = await("MemoryInsufficient for 560 Mi").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> cluster.ragSearch(NAME), x -> Conditions.isTrue(x.getStatus().conditions, Conditions.MEMORY_INSUFFICIENT));
        String message = Conditions.find(insufficient.getStatus().conditions, Conditions.MEMORY_INSUFFICIENT).orElseThrow().getMessage();
        FIGURES.note("limit → 560 Mi: MemoryInsufficient after %.2f s: %s", since(start), message);
        assertEquals(1, insufficient.getStatus().rerank.effective);
        assertTrue(cluster.admin().v1().events().inNamespace(cluster.namespace()).list().getItems().stream()
                .anyMatch(e -> e.getReason().equals("MemoryInsufficient") && e.getType().equals("Warning")));

        // The service stays up through what follows: the old pod serves until a new one is ready
        // (maxUnavailable 0); then the new pods' own measurement under 560 Mi decides.
        McpSchema.CallToolResult during = traffic.search("handbook-en", "password rules");
        assertFalse(Boolean.TRUE.equals(during.isError()));
        String key = insufficient.getStatus().rerank.calibrationKey;
        RagSearch own = await("the new pods' own measurement under 560 Mi").atMost(Duration.ofMinutes(6)).pollInterval(Duration.ofMillis(500))
                .until(() -> cluster.ragSearch(NAME), x -> RerankStatus.BASIS_MEASURED.equals(x.getStatus().rerank.basis)
                        && key.equals(x.getStatus().rerank.calibrationKey) && currentPodsOnly(cluster));
        RerankStatus m = own.getStatus().rerank;
        FIGURES.note("the new pod under 560 Mi measured itself after %.1f s: resident %d MiB, per run %d MiB, by memory %d → MemoryInsufficient %s, concurrency %d; resize %s",
                since(start), m.residentBytes / MIB, m.perRunBytes / MIB, m.byMemory,
                Conditions.isTrue(own.getStatus().conditions, Conditions.MEMORY_INSUFFICIENT), m.effective,
                own.getStatus().resize == null ? "none" : own.getStatus().resize.mode + "/" + own.getStatus().resize.reason);
        assertEquals(m.byMemory < 1, Conditions.isTrue(own.getStatus().conditions, Conditions.MEMORY_INSUFFICIENT));
        assertEquals(1, m.effective);
        for (Pod p : cluster.pods(NAME)) {
            var cs = p.getStatus().getContainerStatuses().get(0);
            FIGURES.note("pod %s: ready %s, restarts %d%s", p.getMetadata().getName(), cs.getReady(), cs.getRestartCount(),
                    cs.getLastState() != null && cs.getLastState().getTerminated() != null
                            ? ", last exit: " + cs.getLastState().getTerminated().getReason() : "");
        }
        McpSchema.CallToolResult after = traffic.search("handbook-en", "password rules");
        assertFalse(Boolean.TRUE.equals(after.isError()));
    }

    /** Every pod of the RagSearch is of its Deployment's current template. */
    static boolean currentPodsOnly(TestCluster cluster) {
        Deployment d = cluster.deployment(NAME);
        if (d == null) {
            return false;
        }
        String hash = configHash(d);
        List<Pod> pods = cluster.admin().pods().inNamespace(cluster.namespace()).withLabel(Labels.LABEL_INSTANCE, NAME).list().getItems();
        return !pods.isEmpty() && pods.stream().allMatch(p -> hash.equals(p.getMetadata().getLabels().get(Labels.CONFIG_HASH)));
    }
}
