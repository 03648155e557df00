package io.ragsearch.operator.simulator;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.ragsearch.contract.budget.RerankBudget;
import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.operator.podadmin.HttpPodAdminClient;
import io.ragsearch.operator.file.RagSearchFile;
import io.ragsearch.operator.playground.DocsDirectory;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.RerankStatus;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.naming.PodLayout;
import io.ragsearch.operator.reconcile.Conditions;
import io.ragsearch.operator.reconcile.MockCluster;
import io.ragsearch.operator.reconcile.OperatorRuntime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.ragsearch.operator.reconcile.MockCluster.configHash;
import static io.ragsearch.operator.reconcile.MockCluster.env;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole loop without a cluster: the real operator against the mock API server, and the pod
 * simulator running real ragsearch-server processes for the Deployment's pods.
 */
@EnableKubernetesMockClient(crud = true)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EndToEndIT {
    static final String NS = "e2e";
    static final String NAME = "handbook";
    static final long MIB = 1024L * 1024;

    static KubernetesClient client;
    static OperatorRuntime operator;
    static MockLoop loop;
    static PodSimulator simulator;
    static SearchTraffic traffic;
    static final StringBuilder summary = new StringBuilder();
    static long t0;

    @BeforeAll
    static void start() throws Exception {
        loop = MockLoop.start(client, NS, NAME, Duration.ofSeconds(30));
        simulator = loop.simulator;
        operator = loop.operator;
        traffic = loop.traffic;
        note("memory limits: " + simulator.memoryLimits());
    }

    @AfterAll
    static void stop() throws Exception {
        if (loop != null) {
            loop.close();
        }
        System.out.println("E2E SUMMARY\n" + summary);
    }

    @Test
    @Order(1)
    void aRagSearchBecomesReadyWithItsOwnMeasurementAndServesSearches() throws Exception {
        Map<String, String> docs = DocsDirectory.data(Path.of("../examples/corpus/en"));
        client.configMaps().inNamespace(NS).resource(new ConfigMapBuilder().withNewMetadata().withName("handbook-docs")
                .withNamespace(NS).endMetadata().withData(docs).build()).create();
        RagSearch r = RagSearchFile.parse("e2e", """
                apiVersion: ragsearch.io/v1alpha1
                kind: RagSearch
                metadata: {name: handbook, namespace: e2e}
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
                """);
        t0 = System.nanoTime();
        client.resource(r).create();

        RagSearch calibrated = await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(200))
                .until(EndToEndIT::get, x -> x.getStatus() != null && Conditions.isTrue(x.getStatus().conditions, Conditions.CALIBRATED));
        note("apply → Calibrated: %.1f s", seconds());
        RagSearch ready = await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(200))
                .until(EndToEndIT::get, x -> Conditions.isTrue(x.getStatus().conditions, Conditions.READY)
                        && x.getStatus().rerank.effective.equals(x.getStatus().rerank.safe)
                        && currentPodsOnly());
        note("apply → Ready with the measured concurrency on every pod: %.1f s", seconds());

        RerankStatus m = ready.getStatus().rerank;
        note("measurement: method %s, resident %d MiB, per run %d MiB, under limit %s, by %s → safe %d (by memory %d), effective %d",
                m.method, m.residentBytes / MIB, m.perRunBytes / MIB, m.measuredUnderLimitBytes == null ? "none" : m.measuredUnderLimitBytes / MIB + " MiB",
                m.measuredBy, m.safe, m.byMemory, m.effective);
        assertEquals(RerankStatus.BASIS_MEASURED, m.basis);
        assertTrue(m.perRunBytes > 0 && m.residentBytes > 0);
        if (simulator.memoryLimitsEnforced()) {
            assertEquals("cgroup-v1", m.method, "the pod measured itself under its own limit");
            assertEquals(1500 * MIB, m.measuredUnderLimitBytes);
        }
        // The numbers come from a pod's own /calibration.
        String ip = ReadyEndpoints.of(client, NS, NAME).get(0);
        Calibration own = new HttpPodAdminClient().calibration(ip, PodLayout.ADMIN_PORT).orElseThrow();
        assertEquals(m.rerankerDigest, own.rerankerDigest());
        // The most conservative of the pods' measurements is kept: it allows no more than this pod's own
        // (and, where both allow the same, costs at least as much), whichever of its two numbers is larger.
        var limits = new io.ragsearch.contract.budget.RerankBudget.Limits(1500 * MIB, null,
                io.ragsearch.contract.budget.RerankBudget.DEFAULT_HEADROOM_PERCENT);
        int ownSafe = io.ragsearch.contract.budget.RerankBudget.safe(limits, new io.ragsearch.contract.budget.RerankBudget.Measurement(
                own.residentBytes(), own.perRunBytes(), Math.max(1, own.intraOpThreads()))).safe();
        assertTrue(m.safe < ownSafe || (m.safe == ownSafe && m.residentBytes + m.perRunBytes >= own.residentBytes() + own.perRunBytes()),
                "the status keeps the most conservative measurement of this key: kept safe " + m.safe + ", this pod's " + ownSafe);
        assertEquals(Integer.toString(m.effective), env(deployment(), "RAGSEARCH_RERANK_CONCURRENCY"));
        assertTrue(calibrated.getStatus().rerank.measuredBy != null);

        McpSchema.CallToolResult result = traffic.search("handbook-en", "how many days of annual leave do I get");
        assertFalse(Boolean.TRUE.equals(result.isError()), String.valueOf(result.content()));
        String text = ((McpSchema.TextContent) result.content().get(0)).text();
        assertTrue(text.toLowerCase().contains("leave"), text);
        note("a search through pod %s answered: %s", ip, text.lines().findFirst().orElse(""));
    }

    @Test
    @Order(2)
    void aMemoryChangeRetunesAtOnceAndRollsWithoutFailedSearches() throws Exception {
        RagSearch before = get();
        int effectiveBefore = before.getStatus().rerank.effective;
        String hashBefore = configHash(deployment());
        traffic.keepSearching("handbook-en", "expense report deadline");
        traffic.awaitServed(5);

        long start = System.nanoTime();
        RagSearch edit = get();
        edit.getSpec().resources.memory = "1000Mi";
        client.resource(edit).update();

        RagSearch retuned = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(EndToEndIT::get,
                x -> x.getStatus().rerank.memoryLimitBytes == 1000 * MIB);
        double tRetune = since(start);
        assertEquals(RerankStatus.BASIS_PREVIOUS, retuned.getStatus().rerank.basis, "recomputed before any new pod measured");
        assertNotEquals(hashBefore, configHash(deployment()), "the pods roll");
        note("limit 1500 → 1000 Mi: recomputed from the previous measurement after %.2f s: concurrency %d → %d",
                tRetune, effectiveBefore, retuned.getStatus().rerank.effective);

        RagSearch confirmed = await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(200)).until(EndToEndIT::get,
                x -> RerankStatus.BASIS_MEASURED.equals(x.getStatus().rerank.basis)
                        && x.getStatus().rerank.calibrationKey.equals(retuned.getStatus().rerank.calibrationKey));
        note("new pod's own measurement after %.1f s: resident %d MiB, per run %d MiB, under %s → concurrency %d",
                since(start), confirmed.getStatus().rerank.residentBytes / MIB, confirmed.getStatus().rerank.perRunBytes / MIB,
                confirmed.getStatus().rerank.measuredUnderLimitBytes == null ? "no limit" : confirmed.getStatus().rerank.measuredUnderLimitBytes / MIB + " MiB",
                confirmed.getStatus().rerank.effective);
        await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(200)).until(() ->
                Conditions.isTrue(get().getStatus().conditions, Conditions.READY) && currentPodsOnly());
        note("roll finished (only pods of the final template left) after %.1f s", since(start));
        traffic.awaitServed(5);
        traffic.stopSearching();
        note("searches during the roll: %d served, %d failed %s", traffic.served.get(), traffic.failed.get(),
                traffic.failures.isEmpty() ? "" : traffic.failures.subList(0, Math.min(3, traffic.failures.size())));
        assertTrue(traffic.served.get() > 0);
        assertEquals(0, traffic.failed.get(), String.valueOf(traffic.failures));
    }

    @Test
    @Order(3)
    void aLimitThatCannotFitOneRerankReportsMemoryInsufficientAtOnceAndTheServiceStaysUp() throws Exception {
        long start = System.nanoTime();
        RagSearch edit = get();
        // 560 Mi: below what one rerank needs beside the resident memory (about 564 MiB measured under 1000 Mi),
        // above what the pod needs to start and calibrate. At 400 Mi the pod is now OOM-killed by its own
        // calibration's first worst-case run (it was not before the embedding moved behind the startup
        // probe; the cause is open, see docs/memory.md).
        edit.getSpec().resources.memory = "560Mi";
        client.resource(edit).update();
        RagSearch insufficient = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(EndToEndIT::get,
                x -> Conditions.isTrue(x.getStatus().conditions, Conditions.MEMORY_INSUFFICIENT));
        String message = Conditions.find(insufficient.getStatus().conditions, Conditions.MEMORY_INSUFFICIENT).orElseThrow().getMessage();
        note("limit → 560 Mi: MemoryInsufficient after %.2f s: %s", since(start), message);
        assertEquals(1, insufficient.getStatus().rerank.effective);
        assertTrue(client.v1().events().inNamespace(NS).list().getItems().stream()
                .anyMatch(e -> e.getReason().equals("MemoryInsufficient") && e.getType().equals("Warning")));

        // The service stays up through what follows: the old pod serves until a new one is ready
        // (maxUnavailable 0); then the new pods' own measurement under 560 Mi decides.
        McpSchema.CallToolResult during = traffic.search("handbook-en", "password rules");
        assertFalse(Boolean.TRUE.equals(during.isError()));
        String key = insufficient.getStatus().rerank.calibrationKey;
        RagSearch own = await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500)).until(EndToEndIT::get,
                x -> RerankStatus.BASIS_MEASURED.equals(x.getStatus().rerank.basis) && key.equals(x.getStatus().rerank.calibrationKey)
                        && currentPodsOnly());
        RerankStatus m = own.getStatus().rerank;
        note("the new pod under 560 Mi measured itself after %.1f s: resident %d MiB, per run %d MiB, by memory %d → MemoryInsufficient %s, concurrency %d",
                since(start), m.residentBytes / MIB, m.perRunBytes / MIB, m.byMemory,
                Conditions.isTrue(own.getStatus().conditions, Conditions.MEMORY_INSUFFICIENT), m.effective);
        assertEquals(m.byMemory < 1, Conditions.isTrue(own.getStatus().conditions, Conditions.MEMORY_INSUFFICIENT));
        assertEquals(1, m.effective);
        for (Pod p : client.pods().inNamespace(NS).list().getItems()) {
            var cs = p.getStatus().getContainerStatuses().get(0);
            note("pod %s: ready %s, restarts %d%s", p.getMetadata().getName(), cs.getReady(), cs.getRestartCount(),
                    cs.getLastState() != null && cs.getLastState().getTerminated() != null
                            ? ", last exit: " + cs.getLastState().getTerminated().getReason() : "");
        }
        McpSchema.CallToolResult after = traffic.search("handbook-en", "password rules");
        assertFalse(Boolean.TRUE.equals(after.isError()));
    }

    @Test
    @Order(4)
    void deletionStopsEveryProcess() {
        long start = System.nanoTime();
        client.resource(get()).delete();
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() ->
                deployment() == null && client.pods().inNamespace(NS).list().getItems().isEmpty() && simulator.runningProcesses() == 0);
        note("deleted: Deployment, pods and processes gone after %.1f s", since(start));
    }

    static boolean currentPodsOnly() {
        Deployment d = deployment();
        if (d == null) {
            return false;
        }
        String hash = configHash(d);
        List<Pod> pods = client.pods().inNamespace(NS).withLabel(Labels.LABEL_INSTANCE, NAME).list().getItems();
        return !pods.isEmpty() && pods.stream().allMatch(p -> hash.equals(p.getMetadata().getLabels().get(Labels.CONFIG_HASH)));
    }

    static RagSearch get() {
        return client.resources(RagSearch.class).inNamespace(NS).withName(NAME).get();
    }

    static Deployment deployment() {
        return client.apps().deployments().inNamespace(NS).withName(NAME).get();
    }

    static double seconds() {
        return since(t0);
    }

    static double since(long start) {
        return (System.nanoTime() - start) / 1e9;
    }

    static void note(String format, Object... args) {
        String line = String.format(java.util.Locale.ROOT, format, args);
        System.out.println("E2E: " + line);
        summary.append("  ").append(line).append('\n');
    }

}
