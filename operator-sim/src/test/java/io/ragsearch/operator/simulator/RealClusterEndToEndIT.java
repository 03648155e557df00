package io.ragsearch.operator.simulator;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.modelcontextprotocol.spec.McpSchema;
import io.ragsearch.operator.file.RagSearchFile;
import io.ragsearch.operator.playground.DocsDirectory;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.RerankStatus;
import io.ragsearch.operator.model.VerificationSpec;
import io.ragsearch.operator.model.VerificationStatus;
import io.ragsearch.operator.naming.ObjectNames;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.naming.PodLayout;
import io.ragsearch.operator.real.ControlPlane;
import io.ragsearch.operator.real.HelmCli;
import io.ragsearch.operator.reconcile.Conditions;
import io.ragsearch.operator.reconcile.LeaderElection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole loop on a real control plane: the API server, the real controllers (Deployment,
 * ReplicaSet, EndpointSlice, disruption, garbage collector) and our node agent running every pod
 * as real processes — the chart's two operator pods (installed with a real Helm, running
 * ragsearch-operator.jar as the chart's ServiceAccount with its projected token, so a verb the
 * chart forgot fails here; server-side apply; one leading on the Lease) and the RagSearch's
 * server pods. The example RagSearch is applied as it is. Searches go to the ready pods the
 * Service selects, which is what its EndpointSlice would list: the real API server refuses
 * loopback addresses in an EndpointSlice (checked below), and pods here can only have loopback
 * addresses. One plane, agent and install serve the scenarios in order; each prints its figure.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RealClusterEndToEndIT {
    static final Path CHART = Path.of("../helm/ragsearch-operator");
    static final Path EXAMPLE = Path.of("../examples/ragsearch.yaml");
    static final String RELEASE = "rs";
    static final String SERVICE_ACCOUNT = "rs-ragsearch-operator";
    /** The chart's default operator image repository (values.yaml); our node runs it from ragsearch-operator.jar. */
    static final String OPERATOR_IMAGE = "ragsearch/operator";
    static final String NAME = "handbook";
    static final long MIB = 1024L * 1024;

    /** The checks a new version must pass on its candidate pod (docs/verify.md), for the example's project. */
    static final String CHECKS = """
            set: e2e-handbook
            project: handbook
            checks:
              - {id: annual-leave, kind: search, query: "How many days of paid annual leave do I get?",
                 expect: [{document: employee-handbook, article: "Article 10"}], within: 3}
              - {id: documents, kind: list_documents, names: [employee-handbook, expense-policy, it-security]}
              - {id: read-overtime, kind: read_article, document: employee-handbook, article: "Article 7", title: Overtime}
              - {id: missing-project, kind: error, tool: search, arguments: {project: handbook-fr, query: leave},
                 message: unknown project}
              - {id: tool-schemas, kind: schemas, tools: [list_documents, list_projects, read_article, search]}
            """;
    static final int CHECK_COUNT = 5;

    static ControlPlane plane;
    static KubernetesClient admin;
    static NodeAgent agent;
    static HelmCli helm;
    static String ops;
    static String ns;
    static SearchTraffic traffic;
    static final StringBuilder summary = new StringBuilder();

    @BeforeAll
    static void start() throws Exception {
        long t = System.nanoTime();
        plane = ControlPlane.get();
        admin = plane.adminClient();
        note("control plane %s up (%.1f s to start)", plane.server(), plane.startupSeconds());
        ops = plane.namespace("ops");
        ns = plane.namespace("handbook");
        // Our node runs the chart's operator pods from the operator's jar, the RagSearch's pods from the server's.
        agent = new NodeAgent(admin, NodeAgent.Settings.of(ServerJar.path(), Files.createTempDirectory("ragsearch-node"))
                .withProgram(OPERATOR_IMAGE, ServerJar.operator()), NodeAgent.DEFAULT_NODE);
        agent.start();
        note("node agent: pods from the %s; %s pods from the plain jar %s; memory limits %s", agent.runtime(), OPERATOR_IMAGE,
                ServerJar.operator().getFileName(), agent.memoryLimits());
        helm = HelmCli.against(plane);
        long installing = System.nanoTime();
        helm.run("install", RELEASE, CHART.toString(), "--namespace", ops, "--server-side=true");
        admin.apiextensions().v1().customResourceDefinitions().withName("ragsearches.ragsearch.io")
                .waitUntilCondition(ControlPlane::established, 60, TimeUnit.SECONDS);
        // Both operator replicas Ready (informers connected, as their /readyz says) and one leading.
        String leader = await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(500)).until(() -> {
            List<Pod> pods = operatorPods();
            Lease lease = lease();
            boolean ready = pods.size() == 2 && pods.stream().allMatch(io.ragsearch.operator.reconcile.RolloutPods::ready);
            return ready && lease != null && pods.stream().anyMatch(p -> p.getMetadata().getName().equals(lease.getSpec().getHolderIdentity()))
                    ? lease.getSpec().getHolderIdentity() : null;
        }, java.util.Objects::nonNull);
        for (Pod p : operatorPods()) {
            assertEquals(NodeAgent.DEFAULT_NODE, p.getSpec().getNodeName());
            assertEquals(SERVICE_ACCOUNT, p.getSpec().getServiceAccountName());
            assertTrue(p.getStatus().getPodIP().startsWith("127."), p.getStatus().getPodIP());
        }
        note("chart installed with Helm (CRD established, RBAC, operator Deployment): 2 operator pods Ready on our node as %s, "
                + "%s holds the Lease: %.1f s after helm install", SERVICE_ACCOUNT, leader, since(installing));
        note("setup (plane, node, chart, 2 operator pods): %.1f s", since(t));
    }

    /** The chart's operator pods (the release's Deployment's selector). */
    static List<Pod> operatorPods() {
        Deployment d = admin.apps().deployments().inNamespace(ops).withName(SERVICE_ACCOUNT).get();
        if (d == null) {
            return List.of();
        }
        return admin.pods().inNamespace(ops).withLabels(d.getSpec().getSelector().getMatchLabels()).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (traffic != null) {
                traffic.close();
            }
            if (helm != null) {
                // the operator pods go with the release; the CRD stays (crds/: Helm never deletes it)
                helm.run("uninstall", RELEASE, "--namespace", ops, "--wait");
                assertNotNull(admin.apiextensions().v1().customResourceDefinitions().withName("ragsearches.ragsearch.io").get());
                await().atMost(Duration.ofSeconds(90)).until(() -> agent.addresses().keySet().stream().noneMatch(pod -> pod.startsWith(ops + "/")));
            }
        } finally {
            if (agent != null) {
                agent.close();
                assertEquals(0, agent.runningProcesses(), "every pod process stopped");
            }
            if (admin != null) {
                admin.close();
            }
            System.out.println("REAL E2E SUMMARY\n" + summary);
        }
    }

    @Test
    @Order(1)
    void theExampleBecomesReadyOnOurNodeWithItsOwnMeasurement() throws Exception {
        Map<String, String> docs = DocsDirectory.data(Path.of("../examples/corpus/en"));
        admin.configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata().withName("handbook-docs")
                .withNamespace(ns).endMetadata().withData(docs).build()).create();
        RagSearch example = RagSearchFile.parse(EXAMPLE.toString(), Files.readString(EXAMPLE));
        example.getMetadata().setNamespace(ns);
        long t0 = System.nanoTime();
        admin.resource(example).create();

        RagSearch ready = await().atMost(Duration.ofMinutes(8)).pollInterval(Duration.ofMillis(500)).until(RealClusterEndToEndIT::get,
                x -> x.getStatus() != null && Conditions.isTrue(x.getStatus().conditions, Conditions.READY)
                        && RerankStatus.BASIS_MEASURED.equals(x.getStatus().rerank.basis)
                        && serviceEndpoints().size() == example.getSpec().replicas
                        && admin.pods().inNamespace(ns).list().getItems().size() == example.getSpec().replicas);
        note("apply → Ready with the pods' own measurement and %d ready pods behind the Service: %.1f s",
                example.getSpec().replicas, since(t0));

        // the real controllers made the ReplicaSet and the pods; our node ran them
        List<Pod> pods = admin.pods().inNamespace(ns).withLabel(Labels.LABEL_INSTANCE, NAME).list().getItems();
        assertEquals(example.getSpec().replicas, pods.size());
        for (Pod p : pods) {
            assertEquals(NodeAgent.DEFAULT_NODE, p.getSpec().getNodeName(), "bound through the binding subresource");
            assertEquals("ReplicaSet", p.getMetadata().getOwnerReferences().get(0).getKind());
            assertEquals("Running", p.getStatus().getPhase());
            assertTrue(p.getStatus().getPodIP().startsWith("127."), p.getStatus().getPodIP());
            assertEquals("127.0.0.1", p.getStatus().getHostIP());
            assertNotNull(p.getStatus().getStartTime());
            assertNotNull(p.getStatus().getQosClass(), "the API server's QoS class survives our status writes");
            for (String type : List.of("PodScheduled", "Initialized", "ContainersReady", "Ready")) {
                assertTrue(p.getStatus().getConditions().stream().anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus())),
                        type + ": " + p.getStatus().getConditions());
            }
        }
        assertEquals(new TreeSet<>(pods.stream().map(p -> p.getStatus().getPodIP()).toList()), new TreeSet<>(serviceEndpoints()));
        // The EndpointSlice controller tried to list them, and the API server refused the addresses.
        EndpointSlice slice = admin.discovery().v1().endpointSlices().inNamespace(ns).withLabel("kubernetes.io/service-name", NAME)
                .list().getItems().get(0);
        assertTrue(slice.getEndpoints() == null || slice.getEndpoints().isEmpty(), String.valueOf(slice.getEndpoints()));
        String refusal = await().atMost(Duration.ofSeconds(30)).until(() -> admin.v1().events().inNamespace(ns).list().getItems().stream()
                .filter(e -> "FailedToUpdateEndpointSlices".equals(e.getReason())).map(e -> e.getMessage()).findFirst().orElse(null),
                m -> m != null);
        assertTrue(refusal.contains("may not be in the loopback range"), refusal);
        note("EndpointSlice %s: no endpoints; the API server refuses pod addresses there: %s", slice.getMetadata().getName(),
                refusal.substring(Math.max(0, refusal.indexOf("endpoints[")), refusal.indexOf(")", refusal.indexOf("loopback range")) + 1));
        Node node = admin.nodes().withName(NodeAgent.DEFAULT_NODE).get();
        assertTrue(node.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())));
        assertEquals("127.0.0.1", node.getStatus().getAddresses().get(0).getAddress());
        Lease nodeLease = admin.leases().inNamespace(NodeRegistration.LEASE_NAMESPACE).withName(NodeAgent.DEFAULT_NODE).get();
        assertEquals(NodeAgent.DEFAULT_NODE, nodeLease.getSpec().getHolderIdentity());

        RerankStatus m = ready.getStatus().rerank;
        note("measurement: method %s, resident %d MiB, per run %d MiB, by %s → safe %d (by memory %d), effective %d",
                m.method, m.residentBytes / MIB, m.perRunBytes / MIB, m.measuredBy, m.safe, m.byMemory, m.effective);
        assertTrue(m.effective >= 1 && m.perRunBytes > 0 && m.residentBytes > 0);
        if (agent.memoryLimitsEnforced()) {
            assertEquals(1500 * MIB, m.measuredUnderLimitBytes, "the pod measured itself under its own limit");
        }
        traffic = new SearchTraffic(RealClusterEndToEndIT::serviceEndpoints);
        McpSchema.CallToolResult result = traffic.search("handbook", "how many days of annual leave do I get");
        assertFalse(Boolean.TRUE.equals(result.isError()), String.valueOf(result.content()));
        assertTrue(((McpSchema.TextContent) result.content().get(0)).text().toLowerCase().contains("leave"));
    }

    @Test
    @Order(2)
    void aLowerMemoryLimitRetunesAndRollsWhileSearchesThroughTheEndpointsAllSucceed() throws Exception {
        RagSearch before = get();
        String hashBefore = configHash();
        traffic.keepSearching("handbook", "expense report deadline");
        traffic.awaitServed(5);
        AtomicInteger leastHealthy = new AtomicInteger(Integer.MAX_VALUE);
        Thread pdbWatch = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                PodDisruptionBudget pdb = admin.policy().v1().podDisruptionBudget().inNamespace(ns).withName(NAME).get();
                if (pdb != null && pdb.getStatus() != null && pdb.getStatus().getCurrentHealthy() != null) {
                    leastHealthy.accumulateAndGet(pdb.getStatus().getCurrentHealthy(), Math::min);
                }
                try {
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "pdb-watch");
        pdbWatch.setDaemon(true);
        pdbWatch.start();

        admin.configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata().withName("handbook-checks")
                .withNamespace(ns).endMetadata().addToData("checks.yaml", CHECKS).build()).create();
        long start = System.nanoTime();
        admin.resources(RagSearch.class).inNamespace(ns).withName(NAME).edit(r -> {
            r.getSpec().resources.memory = "1200Mi";
            // From now on a new version is verified before it serves; this edit itself serves directly
            // (the running Deployment was written without verification: nothing to compare with).
            VerificationSpec v = new VerificationSpec();
            v.configMap = "handbook-checks";
            v.timeoutSeconds = 300;
            r.getSpec().verification = v;
            return r;
        });
        RagSearch retuned = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(RealClusterEndToEndIT::get,
                x -> x.getStatus().rerank.memoryLimitBytes == 1200 * MIB);
        note("limit 1500 → 1200 Mi: recomputed after %.2f s: concurrency %d → %d", since(start),
                before.getStatus().rerank.effective, retuned.getStatus().rerank.effective);
        await().atMost(Duration.ofSeconds(60)).until(() -> !hashBefore.equals(configHash()));

        await().atMost(Duration.ofMinutes(8)).pollInterval(Duration.ofMillis(500)).until(() -> {
            RagSearch x = get();
            return Conditions.isTrue(x.getStatus().conditions, Conditions.READY) && RerankStatus.BASIS_MEASURED.equals(x.getStatus().rerank.basis)
                    && x.getStatus().rerank.calibrationKey.equals(retuned.getStatus().rerank.calibrationKey) && currentPodsOnly();
        });
        note("roll finished (only pods of the new template, measured under 1200 Mi) after %.1f s; ReplicaSets now %d",
                since(start), admin.apps().replicaSets().inNamespace(ns).list().getItems().size());
        traffic.awaitServed(5);
        traffic.stopSearching();
        pdbWatch.interrupt();
        note("searches through the Service's ready pods during the roll: %d served, %d failed %s; PDB currentHealthy never below %d",
                traffic.served.get(), traffic.failed.get(),
                traffic.failures.isEmpty() ? "" : traffic.failures.subList(0, Math.min(3, traffic.failures.size())), leastHealthy.get());
        assertTrue(traffic.served.get() > 0);
        assertEquals(0, traffic.failed.get(), String.valueOf(traffic.failures));
        assertTrue(leastHealthy.get() >= 1, "the PDB's minAvailable 1 held: " + leastHealthy.get());
    }

    @Test
    @Order(3)
    void aVersionThatLostADocumentIsHeldBackWhileTheRunningPodsServeEveryCall() throws Exception {
        assertEquals("True", condition(get(), Conditions.VERIFIED).getStatus(), "the running version counts as verified");
        List<String> servingBefore = servingPodNames();
        String hashBefore = configHash();
        int servedBefore = traffic.served.get();
        int failedBefore = traffic.failed.get();
        traffic.keepSearching("handbook", "expense report deadline");
        traffic.awaitServed(5);
        Map<String, String> twoDocuments = new java.util.HashMap<>(admin.configMaps().inNamespace(ns).withName("handbook-docs").get().getData());
        twoDocuments.remove("expense-policy.md");
        admin.configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata().withName("handbook-docs-partial")
                .withNamespace(ns).endMetadata().withData(twoDocuments).build()).create();
        long start = System.nanoTime();
        admin.resources(RagSearch.class).inNamespace(ns).withName(NAME).edit(r -> {
            r.getSpec().projects.get(0).source.configMap = "handbook-docs-partial";
            return r;
        });
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> candidate() != null);
        Pod candidatePod = await().atMost(Duration.ofMinutes(6)).pollInterval(Duration.ofMillis(500))
                .until(() -> candidatePods().stream().findFirst().orElse(null), p -> p != null && p.getSpec().getNodeName() != null);
        RagSearch held = await().atMost(Duration.ofMinutes(8)).pollInterval(Duration.ofMillis(500)).until(RealClusterEndToEndIT::get,
                x -> x.getStatus().verification != null && VerificationStatus.HELD_BACK.equals(x.getStatus().verification.state));
        double tHeld = since(start);
        // the candidate and what the real controllers made for it go (garbage collection of its ReplicaSet and pod)
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250)).until(() -> candidate() == null && candidatePods().isEmpty());
        double tGone = since(start);
        traffic.awaitServed(5);
        traffic.stopSearching();

        var v = held.getStatus().verification;
        var verified = condition(held, Conditions.VERIFIED);
        note("a version that lost a document: candidate pod %s on %s; held back %.1f s after the edit (checks %d ms: %d passed, %d failed), "
                        + "candidate and its pods gone after %.1f s; %s",
                candidatePod.getMetadata().getName(), candidatePod.getSpec().getNodeName(), tHeld, v.checksMillis, v.passed, v.failed, tGone,
                verified.getMessage().length() > 160 ? verified.getMessage().substring(0, 160) + "…" : verified.getMessage());
        note("searches while it was verified and held back: %d served, %d failed", traffic.served.get() - servedBefore,
                traffic.failed.get() - failedBefore);
        assertEquals("False", verified.getStatus());
        assertEquals("VerificationFailed", verified.getReason());
        assertTrue(verified.getMessage().contains("documents: "), verified.getMessage());
        assertEquals(failedBefore, traffic.failed.get(), String.valueOf(traffic.failures));
        assertEquals(servingBefore, servingPodNames(), "the running pods never stopped");
        assertEquals(hashBefore, configHash(), "the serving Deployment kept its template");
        assertTrue(admin.v1().events().inNamespace(ns).list().getItems().stream()
                .anyMatch(e -> "VerificationFailed".equals(e.getReason()) && "Warning".equals(e.getType())));
    }

    @Test
    @Order(4)
    void aGoodVersionIsPromotedAndRollsWithoutAFailedSearch() throws Exception {
        String hashBefore = configHash();
        int servedBefore = traffic.served.get();
        int failedBefore = traffic.failed.get();
        traffic.keepSearching("handbook", "expense report deadline");
        traffic.awaitServed(5);
        long start = System.nanoTime();
        admin.resources(RagSearch.class).inNamespace(ns).withName(NAME).edit(r -> {
            r.getSpec().projects.get(0).source.configMap = "handbook-docs";
            r.getSpec().projects.get(0).description = "Company handbook: leave, expenses, IT security; English.";
            return r;
        });
        RagSearch promoted = await().atMost(Duration.ofMinutes(8)).pollInterval(Duration.ofMillis(500)).until(RealClusterEndToEndIT::get,
                x -> x.getStatus().verification != null && VerificationStatus.PROMOTED.equals(x.getStatus().verification.state)
                        && "Passed".equals(x.getStatus().verification.outcome));
        double tPromoted = since(start);
        assertNotEquals(hashBefore, configHash(), "the serving Deployment rolls to the verified version");
        await().atMost(Duration.ofMinutes(8)).pollInterval(Duration.ofMillis(500)).until(() ->
                Conditions.isTrue(get().getStatus().conditions, Conditions.READY) && currentPodsOnly() && candidate() == null
                        && candidatePods().isEmpty());
        double tRolled = since(start);
        traffic.awaitServed(5);
        traffic.stopSearching();

        var v = promoted.getStatus().verification;
        note("a good version: promoted %.1f s after the edit (checks %d ms, %d passed); roll finished, candidate gone after %.1f s",
                tPromoted, v.checksMillis, v.passed, tRolled);
        note("searches while it was verified, promoted and rolled: %d served, %d failed", traffic.served.get() - servedBefore,
                traffic.failed.get() - failedBefore);
        assertEquals("True", condition(promoted, Conditions.VERIFIED).getStatus());
        assertEquals(CHECK_COUNT, v.passed);
        assertEquals(failedBefore, traffic.failed.get(), String.valueOf(traffic.failures));
        assertTrue(admin.configMaps().inNamespace(ns).withName(ObjectNames.configMap(NAME)).get().getData().get(PodLayout.CONFIG_FILE)
                .contains("IT security"));
        assertTrue(admin.v1().events().inNamespace(ns).list().getItems().stream().anyMatch(e -> "Promoted".equals(e.getReason())));
    }

    @Test
    @Order(5)
    void whenTheLeadingOperatorStopsOrDiesAnotherTakesOverAndReconciles() {
        // A roll or a drain: the leader's pod deleted, its process stopped with SIGTERM, the Lease released.
        String leader = lease().getSpec().getHolderIdentity();
        long start = System.nanoTime();
        admin.pods().inNamespace(ops).withName(leader).delete();
        String next = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> lease().getSpec().getHolderIdentity(), h -> h != null && !h.isEmpty() && !h.equals(leader));
        double handover = since(start);
        // released: about the agent's 2 s before SIGTERM plus a retry period; an expiring Lease would take 15 s and more
        assertTrue(handover < 12, "a clean stop releases the Lease: took over after " + handover + " s");
        double recreated = serviceRecreatedAfter();
        note("leader pod %s deleted (SIGTERM, Lease released): %s leads after %.1f s, and recreated a deleted Service %.1f s after its deletion",
                leader, next, handover, recreated);

        // A crash: the new leader's pod force-deleted and its process killed at once — nothing released.
        // First the Deployment back at two ready replicas, so a follower is there to take over
        // (the old follower or the first pod's replacement: whichever campaigns first wins).
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                .until(() -> operatorPods().stream().filter(io.ragsearch.operator.reconcile.RolloutPods::ready).count() == 2);
        ProcessHandle process = agent.process(ops, next).orElseThrow();
        long crash = System.nanoTime();
        admin.pods().inNamespace(ops).withName(next).withGracePeriod(0).delete();
        process.destroyForcibly();
        String third = await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
                .until(() -> lease().getSpec().getHolderIdentity(), h -> h != null && !h.isEmpty() && !h.equals(next));
        double takeover = since(crash);
        assertTrue(takeover < 30, "the 15 s Lease expires, then the follower takes it: " + takeover + " s");
        double again = serviceRecreatedAfter();
        note("leader pod %s killed (SIGKILL, grace 0): %s leads after %.1f s (the 15 s Lease expired), and recreated a deleted Service %.1f s after its deletion",
                next, third, takeover, again);
    }

    /** Deletes the RagSearch's Service behind the operator's back; seconds until a new one exists (the leader reconciles). */
    static double serviceRecreatedAfter() {
        String uid = admin.services().inNamespace(ns).withName(NAME).get().getMetadata().getUid();
        long deleted = System.nanoTime();
        admin.services().inNamespace(ns).withName(NAME).delete();
        Service back = await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
                .until(() -> admin.services().inNamespace(ns).withName(NAME).get(), x -> x != null && !uid.equals(x.getMetadata().getUid()));
        assertNotNull(back);
        return since(deleted);
    }

    @Test
    @Order(6)
    void deletingTheRagSearchLetsGarbageCollectionRemoveEveryChild() {
        List<String> children = owned();
        assertTrue(children.stream().anyMatch(c -> c.startsWith("ReplicaSet/")) && children.stream().anyMatch(c -> c.startsWith("Pod/")),
                String.valueOf(children));
        long start = System.nanoTime();
        admin.resources(RagSearch.class).inNamespace(ns).withName(NAME).delete();
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(250))
                .until(() -> owned().isEmpty() && agent.addresses().keySet().stream().noneMatch(pod -> pod.startsWith(ns + "/")));
        note("RagSearch deleted: garbage collection removed %d objects and our node stopped their pods' processes in %.1f s: %s",
                children.size(), since(start), children);
        assertTrue(admin.configMaps().inNamespace(ns).withName("handbook-docs").get() != null, "what the user made stays");
    }

    /** Every object in the namespace that has an owner: what the operator and the controllers made. */
    static List<String> owned() {
        List<HasMetadata> all = new ArrayList<>();
        all.addAll(admin.apps().deployments().inNamespace(ns).list().getItems());
        all.addAll(admin.apps().replicaSets().inNamespace(ns).list().getItems());
        all.addAll(admin.pods().inNamespace(ns).list().getItems());
        all.addAll(admin.services().inNamespace(ns).list().getItems());
        all.addAll(admin.configMaps().inNamespace(ns).list().getItems());
        all.addAll(admin.policy().v1().podDisruptionBudget().inNamespace(ns).list().getItems());
        all.addAll(admin.network().v1().networkPolicies().inNamespace(ns).list().getItems());
        all.addAll(admin.discovery().v1().endpointSlices().inNamespace(ns).list().getItems());
        all.addAll(admin.serviceAccounts().inNamespace(ns).list().getItems());
        all.addAll(admin.secrets().inNamespace(ns).list().getItems());
        return all.stream().filter(o -> o.getMetadata().getOwnerReferences() != null && !o.getMetadata().getOwnerReferences().isEmpty())
                .map(o -> o.getKind() + "/" + o.getMetadata().getName()).sorted().toList();
    }

    /**
     * Where the Service routes now, as its EndpointSlice controller computes it: the pods its
     * selector matches that are ready and not terminating, by address.
     */
    static List<String> serviceEndpoints() {
        return routedPods().stream().map(p -> p.getStatus().getPodIP()).sorted().toList();
    }

    /** The same pods, by name. */
    static List<String> servingPodNames() {
        return routedPods().stream().map(p -> p.getMetadata().getName()).sorted().toList();
    }

    /** The pods the serving Service selects that are ready and not terminating. */
    static List<Pod> routedPods() {
        Service service = admin.services().inNamespace(ns).withName(NAME).get();
        if (service == null) {
            return List.of();
        }
        return admin.pods().inNamespace(ns).withLabels(service.getSpec().getSelector()).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null).filter(io.ragsearch.operator.reconcile.RolloutPods::ready)
                .toList();
    }

    static Deployment candidate() {
        return admin.apps().deployments().inNamespace(ns).withName(ObjectNames.candidate(NAME)).get();
    }

    /** The candidate Deployment's pods (the real ReplicaSet controller makes them from its selector). */
    static List<Pod> candidatePods() {
        Deployment c = candidate();
        if (c == null) {
            return admin.pods().inNamespace(ns).list().getItems().stream()
                    .filter(p -> p.getMetadata().getName().startsWith(ObjectNames.candidate(NAME) + "-")).toList();
        }
        return admin.pods().inNamespace(ns).withLabels(c.getSpec().getSelector().getMatchLabels()).list().getItems();
    }

    static io.fabric8.kubernetes.api.model.Condition condition(RagSearch r, String type) {
        return Conditions.find(r.getStatus().conditions, type).orElseThrow();
    }

    static boolean currentPodsOnly() {
        String hash = configHash();
        List<Pod> pods = admin.pods().inNamespace(ns).withLabel(Labels.LABEL_INSTANCE, NAME).list().getItems();
        return !pods.isEmpty() && pods.stream().allMatch(p -> hash.equals(p.getMetadata().getLabels().get(Labels.CONFIG_HASH)));
    }

    static String configHash() {
        Deployment d = admin.apps().deployments().inNamespace(ns).withName(NAME).get();
        return d.getSpec().getTemplate().getMetadata().getAnnotations().get(Labels.CONFIG_HASH);
    }

    static Lease lease() {
        return admin.leases().inNamespace(ops).withName(LeaderElection.DEFAULT_LEASE).get();
    }

    static RagSearch get() {
        return admin.resources(RagSearch.class).inNamespace(ns).withName(NAME).get();
    }

    static double since(long start) {
        return (System.nanoTime() - start) / 1e9;
    }

    static void note(String format, Object... args) {
        String line = String.format(java.util.Locale.ROOT, format, args);
        System.out.println("REAL E2E: " + line);
        summary.append("  ").append(line).append('\n');
    }

}
