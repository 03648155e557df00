package io.ragsearch.sim.endtoend;

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
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.modelcontextprotocol.spec.McpSchema;
import io.ragsearch.contract.budget.RerankBudget;
import io.ragsearch.operator.file.RagSearchFile;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.RerankStatus;
import io.ragsearch.operator.model.VerificationSpec;
import io.ragsearch.operator.model.VerificationStatus;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.naming.ObjectNames;
import io.ragsearch.operator.naming.PodLayout;
import io.ragsearch.operator.podadmin.HttpPodAdminClient;
import io.ragsearch.operator.reconcile.Conditions;
import io.ragsearch.operator.reconcile.LeaderElection;
import io.ragsearch.operator.reconcile.ResizePlanner;
import io.ragsearch.sim.cluster.Figures;
import io.ragsearch.sim.cluster.HelmCli;
import io.ragsearch.sim.cluster.OperatorActivity;
import io.ragsearch.sim.cluster.RealClusterExtension;
import io.ragsearch.sim.cluster.Repeating;
import io.ragsearch.sim.cluster.SearchTraffic;
import io.ragsearch.sim.cluster.ServerJar;
import io.ragsearch.sim.cluster.TestCluster;
import io.ragsearch.sim.node.EndpointReadiness;
import io.ragsearch.sim.node.NodeAgent;
import io.ragsearch.sim.node.NodeRegistration;
import io.ragsearch.sim.node.PodResize;
import io.ragsearch.sim.plane.ControlPlane;
import io.ragsearch.sim.playground.DocsDirectory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static io.ragsearch.sim.cluster.Figures.since;
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
 * addresses.
 *
 * <p>The class's cluster ({@link RealClusterExtension}: the shared plane, our node, a namespace of
 * the class's own for the chart's operator pods) is installed once; the test is one story in its
 * own namespace, the example's life from its first start to its deletion, each step printing its
 * figure. One story and not one test per step: each step starts from what the one before left (a
 * resize from the measured pods, a verification from the resized ones), and starting each from a
 * fresh example would cost a minute of pod starts a step on the suite's two cores.
 */
class RealClusterEndToEndIT {
    static final Path CHART = Path.of("../helm/ragsearch-operator");
    static final Path EXAMPLE = Path.of("../examples/ragsearch.yaml");
    static final String RELEASE = "rs";
    static final String SERVICE_ACCOUNT = "rs-ragsearch-operator";
    /** The chart's default operator image repository (values.yaml); our node runs it from ragsearch-operator.jar. */
    static final String OPERATOR_IMAGE = "ragsearch/operator";
    static final String NAME = "handbook";
    static final long MIB = 1024L * 1024;

    /** The checks a new version must pass on its candidate pod, for the example's project. */
    static final String CHECKS = TestCluster.handbookChecks("handbook");
    static final int CHECK_COUNT = 6;

    /** Our node runs the chart's operator pods from the operator's jar, the RagSearch's pods from the server's. */
    @RegisterExtension
    static final RealClusterExtension CLUSTER = RealClusterExtension.withNode(s -> s.withProgram(OPERATOR_IMAGE, ServerJar.operator()));
    static final Figures FIGURES = new Figures("REAL E2E");

    static ControlPlane plane;
    static KubernetesClient admin;
    static NodeAgent agent;
    static HelmCli helm;
    /** The class's namespace: the chart's release and its operator pods. */
    static String ops;
    /** The story's namespace. */
    static String ns;
    static SearchTraffic traffic;

    /** The RagSearch's spec memory and resize status, the template, the pods with their limits: what a failed step left. */
    static String stateNow() {
        try {
            RagSearch r = get();
            StringBuilder out = new StringBuilder();
            out.append("spec memory ").append(r.getSpec().resources.memory).append(", verification ")
                    .append(r.getSpec().verification == null ? "off" : "on");
            if (r.getStatus() != null && r.getStatus().resize != null) {
                var z = r.getStatus().resize;
                out.append(", status.resize ").append(z.mode).append('/').append(z.reason).append(' ').append(z.podsResized).append(" of ")
                        .append(z.pods).append(" at ").append(z.memoryLimitBytes == null ? null : z.memoryLimitBytes >> 20).append(" MiB");
            }
            Deployment d = admin.apps().deployments().inNamespace(ns).withName(NAME).get();
            out.append(", template ").append(d == null ? "none" : configHash() + " at " + serverLimits(d.getSpec().getTemplate().getSpec())
                    .get("memory"));
            for (Pod p : admin.pods().inNamespace(ns).withLabel(Labels.LABEL_INSTANCE, NAME).list().getItems()) {
                out.append(", pod ").append(p.getMetadata().getName()).append(' ').append(p.getStatus().getPhase())
                        .append(EndpointReadiness.routable(p) ? " ready" : " not ready").append(" at ")
                        .append(serverLimits(p).get("memory"));
            }
            return out.toString();
        } catch (RuntimeException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    @BeforeAll
    static void start(TestCluster cluster) throws Exception {
        long t = System.nanoTime();
        plane = cluster.plane();
        admin = cluster.admin();
        agent = cluster.agent();
        ops = cluster.namespace();
        FIGURES.note("control plane %s up (%.1f s to start)", plane.server(), plane.startupSeconds());
        FIGURES.note("node agent: pods from the %s; %s pods from the plain jar %s; memory limits %s; CPU limits %s", agent.runtime(),
                OPERATOR_IMAGE, ServerJar.operator().getFileName(), agent.memoryLimits(), agent.cpuLimits());
        helm = HelmCli.against(plane);
        long installing = System.nanoTime();
        // --take-ownership: another test class of this JVM may have applied the CRD without Helm;
        // --force-conflicts: that apply's field manager then owns .spec.versions, which Helm re-applies
        helm.run("install", RELEASE, CHART.toString(), "--namespace", ops, "--server-side=true", "--take-ownership",
                "--force-conflicts");
        admin.apiextensions().v1().customResourceDefinitions().withName("ragsearches.ragsearch.io")
                .waitUntilCondition(ControlPlane::established, 60, TimeUnit.SECONDS);
        // Both operator replicas Ready (informers connected, as their /readyz says) and one leading.
        String leader = await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(500)).until(() -> {
            List<Pod> pods = operatorPods();
            Lease lease = lease();
            boolean ready = pods.size() == 2 && pods.stream().allMatch(EndpointReadiness::routable);
            return ready && lease != null && pods.stream().anyMatch(p -> p.getMetadata().getName().equals(lease.getSpec().getHolderIdentity()))
                    ? lease.getSpec().getHolderIdentity() : null;
        }, java.util.Objects::nonNull);
        for (Pod p : operatorPods()) {
            assertEquals(agent.node(), p.getSpec().getNodeName());
            assertEquals(SERVICE_ACCOUNT, p.getSpec().getServiceAccountName());
            assertTrue(p.getStatus().getPodIP().startsWith("127."), p.getStatus().getPodIP());
        }
        FIGURES.note("chart installed with Helm (CRD established, RBAC, operator Deployment): 2 operator pods Ready on our node as %s, "
                + "%s holds the Lease: %.1f s after helm install", SERVICE_ACCOUNT, leader, since(installing));
        FIGURES.note("setup (plane, node, chart, 2 operator pods): %.1f s", since(t));
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
            if (helm != null) {
                // the operator pods go with the release; the CRD stays (helm.sh/resource-policy: keep)
                helm.run("uninstall", RELEASE, "--namespace", ops, "--wait");
                assertNotNull(admin.apiextensions().v1().customResourceDefinitions().withName("ragsearches.ragsearch.io").get());
                await().atMost(Duration.ofSeconds(90)).until(() -> agent.addresses().keySet().stream().noneMatch(pod -> pod.startsWith(ops + "/")));
            }
            assertEquals(0, agent.runningProcesses(), "every pod process stopped: the story's namespace went after it, the release now");
        } finally {
            FIGURES.printSummary();
        }
    }

    /** The story, step by step; a failed step ends it, and its state is printed. */
    @Test
    void theExampleFromItsFirstStartToItsDeletion(TestCluster cluster) throws Throwable {
        ns = cluster.namespace();
        List<Step> steps = List.of(
                new Step("the example becomes ready with its own measurement", this::theExampleBecomesReadyOnOurNodeWithItsOwnMeasurement),
                new Step("memory, then CPU resized in place", this::memoryThenCpuAreResizedInPlaceDownAndUpAndTheRunningPodsRetuneWhileEverySearchIsServed),
                new Step("a resize no node holds", this::aResizeNoNodeCanHoldIsRefusedRollsToAPodThatWaitsAndGoesBackInPlace),
                new Step("a version that lost a document", this::aVersionThatLostADocumentIsHeldBackWhileTheRunningPodsServeEveryCall),
                new Step("a good version", this::aGoodVersionIsPromotedAndRollsWithoutAFailedSearch),
                new Step("the leading operator stops or dies", this::whenTheLeadingOperatorStopsOrDiesAnotherTakesOverAndReconciles),
                new Step("the RagSearch deleted", this::deletingTheRagSearchLetsGarbageCollectionRemoveEveryChild));
        try {
            for (Step step : steps) {
                try {
                    step.body().execute();
                } catch (Throwable e) {
                    FIGURES.note("FAILED at %s (%s); the state then: %s", step.name(), e.getClass().getSimpleName(), stateNow());
                    throw e;
                }
            }
        } finally {
            if (traffic != null) {
                traffic.close();
            }
        }
    }

    record Step(String name, Executable body) {
    }

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
        FIGURES.note("apply → Ready with the pods' own measurement and %d ready pods behind the Service: %.1f s",
                example.getSpec().replicas, since(t0));

        // the real controllers made the ReplicaSet and the pods; our node ran them
        List<Pod> pods = admin.pods().inNamespace(ns).withLabel(Labels.LABEL_INSTANCE, NAME).list().getItems();
        assertEquals(example.getSpec().replicas, pods.size());
        for (Pod p : pods) {
            assertEquals(agent.node(), p.getSpec().getNodeName(), "bound through the binding subresource");
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
        FIGURES.note("EndpointSlice %s: no endpoints; the API server refuses pod addresses there: %s", slice.getMetadata().getName(),
                refusal.substring(Math.max(0, refusal.indexOf("endpoints[")), refusal.indexOf(")", refusal.indexOf("loopback range")) + 1));
        Node node = admin.nodes().withName(agent.node()).get();
        assertTrue(node.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())));
        assertEquals("127.0.0.1", node.getStatus().getAddresses().get(0).getAddress());
        Lease nodeLease = admin.leases().inNamespace(NodeRegistration.LEASE_NAMESPACE).withName(agent.node()).get();
        assertEquals(agent.node(), nodeLease.getSpec().getHolderIdentity());

        RerankStatus m = ready.getStatus().rerank;
        FIGURES.note("measurement: method %s, resident %d MiB, per run %d MiB, by %s → safe %d (by memory %d), effective %d",
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

    /** The memory limits the in-place scenario walks through, and the concurrency each gives with the pods' measured costs. */
    static final long[] IN_PLACE_STEPS = {1200 * MIB, 2000 * MIB};
    /** Then the CPU limits (millicores), from the example's 2 cores and back to them, at the last memory step's limit. */
    static final long[] CPU_STEPS = {1000, 2000};

    void memoryThenCpuAreResizedInPlaceDownAndUpAndTheRunningPodsRetuneWhileEverySearchIsServed() throws Exception {
        List<Pod> before = routedPods();
        assertEquals(2, before.size(), "two serving pods to resize");
        Map<String, String> started = starts(before);
        String hashBefore = configHash();
        int replicaSets = admin.apps().replicaSets().inNamespace(ns).list().getItems().size();
        RagSearch at = get();
        int concurrency = at.getStatus().rerank.effective;
        long templateMemory = at.getStatus().rerank.memoryLimitBytes;
        Searching searching = Searching.start();
        try (searching) {
            for (long limit : IN_PLACE_STEPS) {
                int served = traffic.served.get();
                int expected = expectedConcurrency(before, limit);
                Retuned r = resizeInPlace(limit);
                FIGURES.note("memory %d → %d Mi in place: status.resize complete %.1f s after the edit (secondsToRetune %.1f; pods re-tuned %s s "
                                + "after the edit; operator: %s); concurrency %d → %d (expected %d from the pods' measured costs); "
                                + "%d searches served meanwhile",
                        templateMemoryOr(r.from, templateMemory) >> 20, limit >> 20, r.seconds, r.status.secondsToRetune, r.podSeconds,
                        r.operator, concurrency, r.status.concurrency, expected, traffic.served.get() - served);
                assertEquals(expected, r.status.concurrency, "status.resize.concurrency against the measured costs");
                assertPodsRetuned(before, started, limit, expected, templateMemory);
                concurrency = r.status.concurrency;
            }
            long memory = IN_PLACE_STEPS[IN_PLACE_STEPS.length - 1];
            if (agent.cpuLimitsEnforced()) {
                for (long millis : CPU_STEPS) {
                    int served = traffic.served.get();
                    int expected = expectedConcurrency(before, memory, millis);
                    Retuned r = resizeInPlace(memory, millis, false);
                    FIGURES.note("cpu → %dm in place (memory %d Mi): status.resize complete %.1f s after the edit (secondsToRetune %.1f; pods "
                                    + "re-tuned %s s after the edit; operator: %s); concurrency %d → %d (expected %d from the pods' "
                                    + "measured costs); %d searches served meanwhile", millis, memory >> 20, r.seconds,
                            r.status.secondsToRetune, r.podSeconds, r.operator, concurrency, r.status.concurrency, expected,
                            traffic.served.get() - served);
                    assertEquals(expected, r.status.concurrency, "status.resize.concurrency against the measured costs");
                    assertPodsRetuned(before, started, memory, expected, templateMemory);
                    assertPodsAtCpu(millis);
                    concurrency = r.status.concurrency;
                }
            } else {
                // Without a quota to read the servers keep the operator's CPU limit, and the operator waits for them for ever.
                FIGURES.note("cpu steps not run: the node agent does not enforce CPU limits here (%s)", agent.cpuLimits());
            }
            traffic.awaitServed(5);
        }
        FIGURES.note("searches during the in-place resizes: %s", searching);
        searching.assertAllServedBySamePods();
        assertEquals(hashBefore, configHash(), "the pod template is kept: nothing rolled");
        assertEquals(replicaSets, admin.apps().replicaSets().inNamespace(ns).list().getItems().size(), "no new ReplicaSet");
        assertEquals(templateMemory, get().getStatus().resize.templateMemoryLimitBytes);
    }

    private static long templateMemoryOr(Long from, long template) {
        return from == null ? template : from;
    }

    /** What one in-place step showed: the RagSearch's status.resize when complete, and when. */
    record Retuned(Long from, io.ragsearch.operator.model.ResizeStatus status, double seconds, String podSeconds, String operator) {
    }

    /**
     * Edits spec.resources.memory and waits until the operator reports every pod of the template
     * resized and re-tuned (status.resize), with its events; a timeout says what the operator did.
     */
    static Retuned resizeInPlace(long limit) throws Exception {
        return resizeInPlace(limit, false);
    }

    /**
     * The same; with {@code rollFirst} the operator may first roll (a rollout under way: the template
     * goes back to the running pods' ReplicaSet) before it resizes them in place.
     */
    static Retuned resizeInPlace(long limit, boolean rollFirst) throws Exception {
        return resizeInPlace(limit, null, rollFirst);
    }

    /** The same with the CPU limit edited too ({@code cpuMillis}, millicores; null: the spec's CPU as it is). */
    static Retuned resizeInPlace(long limit, Long cpuMillis, boolean rollFirst) throws Exception {
        RagSearch was = get();
        Long from = was.getStatus().resize == null ? null : was.getStatus().resize.memoryLimitBytes;
        OperatorActivity activity = activity();
        long start = System.nanoTime();
        admin.resources(RagSearch.class).inNamespace(ns).withName(NAME).edit(r -> {
            r.getSpec().resources.memory = (limit / MIB) + "Mi";
            if (cpuMillis != null) {
                r.getSpec().resources.cpu = cpuMillis + "m";
            }
            return r;
        });
        String target = (limit / MIB) + " MiB" + (cpuMillis == null ? "" : ", cpu " + cpuMillis + "m");
        java.util.function.Predicate<io.ragsearch.operator.model.ResizeStatus> at = z -> z != null && z.memoryLimitBytes == limit
                && (cpuMillis == null || cpuMillis.equals(z.cpuLimitMillis));
        RagSearch decided = activity.await("status.resize to " + target + (rollFirst ? ", in place" : ""),
                Duration.ofMinutes(3), RealClusterEndToEndIT::get, x -> at.test(x.getStatus().resize)
                        && (!rollFirst || "InPlace".equals(x.getStatus().resize.mode)));
        assertEquals("InPlace", decided.getStatus().resize.mode, decided.getStatus().resize.reason + " " + events(decided.getStatus().resize.reason));
        RagSearch done = activity.await("every pod resized to " + target + " and re-tuned (status.resize.retunedAt)",
                Duration.ofMinutes(4), RealClusterEndToEndIT::get, x -> x.getStatus().resize.retunedAt != null
                        && at.test(x.getStatus().resize) && x.getStatus().resize.pods != null
                        && x.getStatus().resize.pods.equals(x.getStatus().resize.podsResized));
        double seconds = since(start);
        var s = done.getStatus().resize;
        assertEquals(2, s.pods);
        assertEquals(s.concurrency, done.getStatus().rerank.running, "the Concurrency column (status.rerank.running) shows what the pods run");
        assertTrue(s.secondsToRetune != null && s.secondsToRetune >= 0 && s.secondsToRetune < seconds + 2, String.valueOf(s.secondsToRetune));
        String limits = cpuMillis == null ? (limit / MIB) + " MiB" : "→ memory " + (limit / MIB) + " MiB, cpu " + cpuMillis + "m";
        assertTrue(events(ResizePlanner.REASON_IN_PLACE).stream().anyMatch(m -> m.contains(limits)),
                "a ResizedInPlace event for " + limits + ": " + events(ResizePlanner.REASON_IN_PLACE));
        String retuned = "every pod runs at memory " + (limit / MIB) + " MiB with rerank concurrency " + s.concurrency;
        activity.await("the Retuned event: " + retuned, Duration.ofSeconds(30), () -> events("Retuned"),
                m -> m.stream().anyMatch(x -> x.startsWith(retuned)));
        List<String> podSeconds = new ArrayList<>();
        for (Pod p : routedPods()) {
            var live = new HttpPodAdminClient().live(p.getStatus().getPodIP(), PodLayout.ADMIN_PORT).orElseThrow();
            podSeconds.add(String.format(java.util.Locale.ROOT, "%.1f",
                    Duration.between(activity.editedAt(), java.time.Instant.parse(live.retunedAt())).toMillis() / 1000.0));
        }
        return new Retuned(from, s, seconds, String.join(", ", podSeconds), activity.sinceEdit());
    }

    /**
     * Each pod still the same process (UID, container start, no restart), at the new limit in its
     * spec and as the node reports it, with its /calibration live block and /metrics saying the
     * same limit and concurrency. Its limit source is the cgroup's, or "start" when the pods are
     * back at the limit they started under ({@code startedUnder}).
     */
    static void assertPodsRetuned(List<Pod> before, Map<String, String> started, long limit, int concurrency, long startedUnder)
            throws Exception {
        List<Pod> now = routedPods();
        assertEquals(before.stream().map(p -> p.getMetadata().getUid()).sorted().toList(),
                now.stream().map(p -> p.getMetadata().getUid()).sorted().toList(), "the same pods (UIDs)");
        assertEquals(started, starts(now), "the same container starts: nothing restarted");
        for (Pod p : now) {
            String name = p.getMetadata().getName();
            var cs = p.getStatus().getContainerStatuses().stream().filter(c -> PodLayout.SERVER_CONTAINER.equals(c.getName())).findFirst()
                    .orElseThrow();
            assertEquals(0, cs.getRestartCount(), name);
            assertEquals(limit, bytes(serverLimits(p).get("memory")), name + ": spec");
            assertEquals(limit, bytes(cs.getResources().getLimits().get("memory")), name + ": status.containerStatuses[].resources");
            String ip = p.getStatus().getPodIP();
            var live = new HttpPodAdminClient().live(ip, PodLayout.ADMIN_PORT).orElseThrow();
            assertEquals(limit, live.memoryLimitBytes(), name + ": /calibration live " + live);
            assertEquals(concurrency, live.concurrency(), name + ": /calibration live " + live);
            assertTrue(live.inForce(), name + ": " + live);
            if (agent.memoryLimitsEnforced()) {
                assertEquals(limit == startedUnder ? io.ragsearch.contract.calibration.LiveRerank.SOURCE_START
                        : io.ragsearch.contract.calibration.LiveRerank.SOURCE_CGROUP, live.limitSource(), name + ": where the limit comes from");
            }
            String metrics = OperatorActivity.get("http://" + ip + ":" + PodLayout.ADMIN_PORT + "/metrics");
            assertEquals(concurrency, OperatorActivity.value(metrics, "ragsearch_rerank_concurrency"), name + ": /metrics");
            assertEquals((double) limit, OperatorActivity.value(metrics, "ragsearch_memory_limit_bytes"), name + ": /metrics");
        }
    }

    /**
     * Each pod at {@code millis} in its spec, as the node reports it (status.containerStatuses[].resources), in its
     * /calibration live block (the quota its server read from its cgroup) and in its /metrics.
     */
    static void assertPodsAtCpu(long millis) throws Exception {
        for (Pod p : routedPods()) {
            String name = p.getMetadata().getName();
            var cs = p.getStatus().getContainerStatuses().stream().filter(c -> PodLayout.SERVER_CONTAINER.equals(c.getName())).findFirst()
                    .orElseThrow();
            assertEquals(millis, PodResize.millis(serverLimits(p), "cpu"), name + ": spec");
            assertEquals(millis, PodResize.millis(cs.getResources().getLimits(), "cpu"), name + ": status.containerStatuses[].resources");
            String ip = p.getStatus().getPodIP();
            var live = new HttpPodAdminClient().live(ip, PodLayout.ADMIN_PORT).orElseThrow();
            assertEquals(Long.valueOf(millis), live.cpuLimitMillis(), name + ": /calibration live " + live);
            String metrics = OperatorActivity.get("http://" + ip + ":" + PodLayout.ADMIN_PORT + "/metrics");
            assertEquals((double) millis, OperatorActivity.value(metrics, "ragsearch_cpu_limit_millis"), name + ": /metrics");
        }
    }

    /** The concurrency the contract's formula gives under {@code limit} with each pod's own measurement (the lowest). */
    static int expectedConcurrency(List<Pod> pods, long limit) throws Exception {
        RagSearch r = get();
        Long cpu = r.getSpec().resources.cpu == null ? null : io.fabric8.kubernetes.api.model.Quantity.getAmountInBytes(
                new io.fabric8.kubernetes.api.model.Quantity(r.getSpec().resources.cpu)).multiply(java.math.BigDecimal.valueOf(1000)).longValue();
        return expectedConcurrency(pods, limit, cpu);
    }

    /** The same under the CPU limit {@code cpu} (millicores; null: none): byCpu = max(1, cpu / (1000 × intraOpThreads)). */
    static int expectedConcurrency(List<Pod> pods, long limit, Long cpu) throws Exception {
        int lowest = Integer.MAX_VALUE;
        RagSearch r = get();
        int headroom = r.getSpec().rerank == null || r.getSpec().rerank.headroomPercent == null ? 10 : r.getSpec().rerank.headroomPercent;
        for (Pod p : pods) {
            var c = new HttpPodAdminClient().calibration(p.getStatus().getPodIP(), PodLayout.ADMIN_PORT).orElseThrow();
            var safe = RerankBudget.safe(new RerankBudget.Limits(limit, cpu, headroom),
                    new RerankBudget.Measurement(c.residentBytes(), c.perRunBytes(), Math.max(1, c.intraOpThreads())));
            lowest = Math.min(lowest, RerankBudget.effective(RerankBudget.Request.auto(), safe).concurrency());
        }
        return lowest;
    }

    void aResizeNoNodeCanHoldIsRefusedRollsToAPodThatWaitsAndGoesBackInPlace() throws Exception {
        List<Pod> before = routedPods();
        Map<String, String> started = starts(before);
        String hashBefore = configHash();
        long templateMemory = bytes(serverLimits(admin.apps().deployments().inNamespace(ns).withName(NAME).get().getSpec().getTemplate()
                .getSpec()).get("memory"));
        // where the pods run now (the in-place scenario left them at its last step): the refusal must leave them there
        long podMemory = bytes(serverLimits(before.get(0)).get("memory"));
        int podConcurrency = new HttpPodAdminClient().live(before.get(0).getStatus().getPodIP(), PodLayout.ADMIN_PORT).orElseThrow()
                .concurrency();
        Searching searching = Searching.start();
        try (searching) {
            OperatorActivity activity = activity();
            long start = System.nanoTime();
            admin.resources(RagSearch.class).inNamespace(ns).withName(NAME).edit(r -> {
                r.getSpec().resources.memory = "1000Gi";
                return r;
            });
            // The API server refuses the resize (its PodResize admission: beyond the node's allocatable); the operator says so and rolls.
            String refusal = activity.await("an InPlaceResizeRefused event", Duration.ofMinutes(3),
                    () -> warnings(ResizePlanner.REASON_REFUSED), m -> !m.isEmpty()).get(0);
            double tRefused = since(start);
            assertTrue(refusal.contains("403") && refusal.contains("allocatable"), refusal);
            Pod waiting = activity.await("the roll's new pod, not placed (PodScheduled False, Unschedulable)", Duration.ofMinutes(3),
                    () -> admin.pods().inNamespace(ns).withLabel(Labels.LABEL_INSTANCE, NAME).list().getItems().stream()
                            .filter(p -> !hashBefore.equals(p.getMetadata().getLabels().get(Labels.CONFIG_HASH))).findFirst().orElse(null),
                    p -> p != null && p.getStatus() != null && p.getStatus().getConditions() != null && p.getStatus().getConditions().stream()
                            .anyMatch(c -> "PodScheduled".equals(c.getType()) && "Unschedulable".equals(c.getReason())));
            double tWaiting = since(start);
            RagSearch rolled = activity.await("status.resize: a roll, the in-place resize refused", Duration.ofMinutes(1),
                    RealClusterEndToEndIT::get, x -> "Roll".equals(x.getStatus().resize.mode)
                            && ResizePlanner.REASON_REFUSED.equals(x.getStatus().resize.reason));
            assertTrue(rolled.getStatus().resize.refused.contains("allocatable"), rolled.getStatus().resize.refused);
            String why = waiting.getStatus().getConditions().stream().filter(c -> "PodScheduled".equals(c.getType())).findFirst()
                    .orElseThrow().getMessage();
            traffic.awaitServed(3);
            FIGURES.note("memory → 1000 Gi: the API server refused the in-place resize (event after %.1f s: %s); the operator rolled: new pod %s "
                            + "not placed after %.1f s (%s); the running pods serve on", tRefused, abbreviate(refusal), waiting.getMetadata().getName(),
                    tWaiting, why);
            assertTrue(why.contains("Insufficient memory"), why);
            assertPodsRetuned(before, started, podMemory, podConcurrency, templateMemory);

            // Back to the template's limits: the Deployment returns to the running pods' ReplicaSet
            // and the running pods are resized to those limits in place.
            int expected = expectedConcurrency(before, templateMemory);
            Retuned back = resizeInPlace(templateMemory, true);
            assertTrue(events(ResizePlanner.REASON_ROLLOUT).stream().anyMatch(m -> m.contains("rollout has not finished")),
                    "first a roll back to the running pods' template: " + events(ResizePlanner.REASON_ROLLOUT));
            // Open finding (issue 29): in the runs of 2026-12-06 the roll's waiting pod was still there 300 s after the way
            // back although the pods serve the template again, so it is reported here, not asserted.
            Pod left = admin.pods().inNamespace(ns).withName(waiting.getMetadata().getName()).get();
            FIGURES.note("the refused roll's waiting pod after the way back: %s; configuration hash %s (before the refusal %s); "
                            + "ReplicaSets: %s",
                    left == null ? "gone" : "still there, " + left.getStatus().getPhase() + ", node " + left.getSpec().getNodeName()
                            + ", deletion " + left.getMetadata().getDeletionTimestamp() + ", finalizers " + left.getMetadata().getFinalizers()
                            + ", owned by " + left.getMetadata().getOwnerReferences().stream().map(o -> o.getName()).toList(),
                    configHash(), hashBefore, replicaSets());
            FIGURES.note("memory back to the template's %d Mi: the running pods resized in place %.1f s after the edit "
                            + "(secondsToRetune %.1f), concurrency %d (expected %d)", templateMemory >> 20, back.seconds,
                    back.status.secondsToRetune, back.status.concurrency, expected);
            assertEquals(expected, back.status.concurrency);
            assertPodsRetuned(before, started, templateMemory, expected, templateMemory);
            traffic.awaitServed(3);
        }
        FIGURES.note("searches while refused, rolled and resized back: %s", searching);
        searching.assertAllServedBySamePods();
    }

    static String abbreviate(String s) {
        return s.length() > 220 ? s.substring(0, 220) + "…" : s;
    }

    /** Container start times by pod name. */
    static Map<String, String> starts(List<Pod> pods) {
        Map<String, String> out = new java.util.TreeMap<>();
        for (Pod p : pods) {
            out.put(p.getMetadata().getName(), p.getStatus().getContainerStatuses().stream()
                    .filter(c -> PodLayout.SERVER_CONTAINER.equals(c.getName())).findFirst().orElseThrow().getState().getRunning().getStartedAt());
        }
        return out;
    }

    static Map<String, io.fabric8.kubernetes.api.model.Quantity> serverLimits(Pod p) {
        return serverLimits(p.getSpec());
    }

    static Map<String, io.fabric8.kubernetes.api.model.Quantity> serverLimits(io.fabric8.kubernetes.api.model.PodSpec spec) {
        return spec.getContainers().stream().filter(c -> PodLayout.SERVER_CONTAINER.equals(c.getName())).findFirst().orElseThrow()
                .getResources().getLimits();
    }

    static long bytes(io.fabric8.kubernetes.api.model.Quantity q) {
        return io.fabric8.kubernetes.api.model.Quantity.getAmountInBytes(q).longValue();
    }

    /** The messages of the namespace's events with this reason, oldest first. */
    static List<String> events(String reason) {
        return admin.v1().events().inNamespace(ns).list().getItems().stream().filter(e -> reason.equals(e.getReason()))
                .map(io.fabric8.kubernetes.api.model.Event::getMessage).toList();
    }

    static List<String> warnings(String reason) {
        return admin.v1().events().inNamespace(ns).list().getItems().stream()
                .filter(e -> reason.equals(e.getReason()) && "Warning".equals(e.getType()))
                .map(io.fabric8.kubernetes.api.model.Event::getMessage).toList();
    }

    /** What the operator did since now (an edit follows), for waits that may time out. */
    static OperatorActivity activity() {
        return OperatorActivity.mark(RealClusterEndToEndIT::operatorPods, RealClusterEndToEndIT::get,
                () -> lease().getSpec().getHolderIdentity());
    }

    /**
     * A client searching through the Service while a scenario runs, counted from its start, and the
     * Service's ready pods sampled on a thread: any set other than the first is a change.
     */
    static final class Searching implements AutoCloseable {
        private final int servedBefore = traffic.served.get();
        private final int failedBefore = traffic.failed.get();
        private final List<String> first = servingPodNames();
        private final List<String> changes = java.util.Collections.synchronizedList(new ArrayList<>());
        private final Repeating watch = Repeating.every(Duration.ofMillis(250), "serving-pods-watch", () -> {
            List<String> now = servingPodNames();
            if (!now.equals(first) && (changes.isEmpty() || !changes.get(changes.size() - 1).equals(now.toString()))) {
                changes.add(now.toString());
            }
        });

        /** Starts searching and returns once 5 searches were served. */
        static Searching start() {
            Searching s = new Searching();
            traffic.keepSearching("handbook", "expense report deadline");
            traffic.awaitServed(5);
            return s;
        }

        void assertAllServedBySamePods() {
            assertTrue(traffic.served.get() > servedBefore);
            assertEquals(failedBefore, traffic.failed.get(), String.valueOf(traffic.failures));
            assertEquals(List.of(), List.copyOf(changes), "the Service's ready pods were the same throughout: " + first);
        }

        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT, "%d served, %d failed %s; the Service's ready pods %s, changed: %s",
                    traffic.served.get() - servedBefore, traffic.failed.get() - failedBefore,
                    traffic.failures.isEmpty() ? "" : traffic.failures.subList(0, Math.min(3, traffic.failures.size())), first, changes);
        }

        @Override
        public void close() throws InterruptedException {
            traffic.stopSearching();
            watch.close();
        }
    }

    void aVersionThatLostADocumentIsHeldBackWhileTheRunningPodsServeEveryCall() throws Exception {
        // From now on a new version is verified before it serves; the running one counts as verified (no roll: the
        // version is the Deployment's annotation, not its pod template's).
        admin.configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata().withName("handbook-checks")
                .withNamespace(ns).endMetadata().addToData("checks.yaml", CHECKS).build()).serverSideApply();
        String template = configHash();
        OperatorActivity activity = activity();
        admin.resources(RagSearch.class).inNamespace(ns).withName(NAME).edit(r -> {
            VerificationSpec v = new VerificationSpec();
            v.configMap = "handbook-checks";
            v.timeoutSeconds = 300;
            r.getSpec().verification = v;
            return r;
        });
        activity.await("the Verified condition True for the running version", Duration.ofMinutes(3), RealClusterEndToEndIT::get,
                x -> x.getStatus().conditions != null && Conditions.find(x.getStatus().conditions, Conditions.VERIFIED)
                        .map(c -> "True".equals(c.getStatus())).orElse(false));
        assertEquals(template, configHash(), "turning verification on rolls nothing");
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
        FIGURES.note("a version that lost a document: candidate pod %s on %s; held back %.1f s after the edit (checks %d ms: %d passed, %d failed), "
                        + "candidate and its pods gone after %.1f s; %s",
                candidatePod.getMetadata().getName(), candidatePod.getSpec().getNodeName(), tHeld, v.checksMillis, v.passed, v.failed, tGone,
                verified.getMessage().length() > 160 ? verified.getMessage().substring(0, 160) + "…" : verified.getMessage());
        FIGURES.note("searches while it was verified and held back: %d served, %d failed", traffic.served.get() - servedBefore,
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
        FIGURES.note("a good version: promoted %.1f s after the edit (checks %d ms, %d passed); roll finished, candidate gone after %.1f s",
                tPromoted, v.checksMillis, v.passed, tRolled);
        FIGURES.note("searches while it was verified, promoted and rolled: %d served, %d failed", traffic.served.get() - servedBefore,
                traffic.failed.get() - failedBefore);
        assertEquals("True", condition(promoted, Conditions.VERIFIED).getStatus());
        assertEquals(CHECK_COUNT, v.passed);
        assertEquals(failedBefore, traffic.failed.get(), String.valueOf(traffic.failures));
        assertTrue(admin.configMaps().inNamespace(ns).withName(ObjectNames.configMap(NAME)).get().getData().get(PodLayout.CONFIG_FILE)
                .contains("IT security"));
        assertTrue(admin.v1().events().inNamespace(ns).list().getItems().stream().anyMatch(e -> "Promoted".equals(e.getReason())));
    }

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
        FIGURES.note("leader pod %s deleted (SIGTERM, Lease released): %s leads after %.1f s, and recreated a deleted Service %.1f s after its deletion",
                leader, next, handover, recreated);

        // A crash: the new leader's pod force-deleted and its process killed at once — nothing released.
        // First the Deployment back at two ready replicas, so a follower is there to take over
        // (the old follower or the first pod's replacement: whichever campaigns first wins).
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                .until(() -> operatorPods().stream().filter(EndpointReadiness::routable).count() == 2);
        ProcessHandle process = agent.process(ops, next).orElseThrow();
        long crash = System.nanoTime();
        admin.pods().inNamespace(ops).withName(next).withGracePeriod(0).delete();
        process.destroyForcibly();
        String third = await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
                .until(() -> lease().getSpec().getHolderIdentity(), h -> h != null && !h.isEmpty() && !h.equals(next));
        double takeover = since(crash);
        assertTrue(takeover < 30, "the 15 s Lease expires, then the follower takes it: " + takeover + " s");
        double again = serviceRecreatedAfter();
        FIGURES.note("leader pod %s killed (SIGKILL, grace 0): %s leads after %.1f s (the 15 s Lease expired), and recreated a deleted Service %.1f s after its deletion",
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

    void deletingTheRagSearchLetsGarbageCollectionRemoveEveryChild() {
        List<String> children = owned();
        assertTrue(children.stream().anyMatch(c -> c.startsWith("ReplicaSet/")) && children.stream().anyMatch(c -> c.startsWith("Pod/")),
                String.valueOf(children));
        long start = System.nanoTime();
        admin.resources(RagSearch.class).inNamespace(ns).withName(NAME).delete();
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(250))
                .until(() -> owned().isEmpty() && agent.addresses().keySet().stream().noneMatch(pod -> pod.startsWith(ns + "/")));
        FIGURES.note("RagSearch deleted: garbage collection removed %d objects and our node stopped their pods' processes in %.1f s: %s",
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
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null).filter(EndpointReadiness::routable)
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

    /** Each ReplicaSet of the namespace: name, desired and available replicas, its template's configuration hash. */
    static List<String> replicaSets() {
        return admin.apps().replicaSets().inNamespace(ns).list().getItems().stream()
                .map(r -> r.getMetadata().getName() + " " + r.getSpec().getReplicas() + "/" + r.getStatus().getAvailableReplicas()
                        + " " + r.getSpec().getTemplate().getMetadata().getAnnotations().get(Labels.CONFIG_HASH))
                .toList();
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
}
