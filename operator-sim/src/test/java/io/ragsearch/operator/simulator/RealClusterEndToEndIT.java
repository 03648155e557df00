package io.ragsearch.operator.simulator;

import com.marcnuri.helm.Helm;
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
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.modelcontextprotocol.spec.McpSchema;
import io.ragsearch.operator.podadmin.HttpPodAdminClient;
import io.ragsearch.operator.file.RagSearchFile;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.RerankStatus;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.naming.PodLayout;
import io.ragsearch.operator.real.ControlPlane;
import io.ragsearch.operator.reconcile.Conditions;
import io.ragsearch.operator.reconcile.LeaderElection;
import io.ragsearch.operator.reconcile.OperatorRuntime;
import io.ragsearch.operator.reconcile.RagSearchReconciler;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole loop on a real control plane: the API server, the real controllers (Deployment,
 * ReplicaSet, EndpointSlice, disruption, garbage collector) and our node agent running the pods
 * as real server processes. Two operator instances run in this JVM as the chart's ServiceAccount
 * (impersonated: a verb the chart forgot fails here), server-side apply on, one leading on a
 * Lease. The example RagSearch is applied as it is. Searches go to the ready pods the Service
 * selects, which is what its EndpointSlice would list: the real API server refuses loopback
 * addresses in an EndpointSlice (checked below), and pods here can only have loopback addresses.
 * One plane, one agent and one operator start serve the scenarios in order; each prints its figure.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RealClusterEndToEndIT {
    static final Path CHART = Path.of("../helm/ragsearch-operator");
    static final Path EXAMPLE = Path.of("../examples/ragsearch.yaml");
    static final String RELEASE = "rs";
    static final String SERVICE_ACCOUNT = "rs-ragsearch-operator";
    static final String NAME = "handbook";
    static final long MIB = 1024L * 1024;

    static ControlPlane plane;
    static KubernetesClient admin;
    static NodeAgent agent;
    static String ops;
    static String ns;
    static final Map<String, KubernetesClient> clients = new LinkedHashMap<>();
    static final Map<String, OperatorRuntime> operators = new LinkedHashMap<>();
    static SearchTraffic traffic;
    static final StringBuilder summary = new StringBuilder();

    @BeforeAll
    static void start() throws Exception {
        long t = System.nanoTime();
        plane = ControlPlane.get();
        admin = plane.adminClient();
        note("control plane %s up (%.1f s to start)", plane.server(), plane.startupSeconds());
        plane.applyRagSearchCrd(admin);
        ops = plane.namespace("ops");
        ns = plane.namespace("handbook");
        // the chart's ServiceAccount, roles and bindings, as Helm renders them (its Deployment is
        // replaced by the two instances in this JVM)
        for (HasMetadata o : parse(new Helm(CHART).template().withName(RELEASE).withNamespace(ops).call())) {
            if (!(o instanceof Deployment)) {
                admin.resource(o).serverSideApply();
            }
        }
        agent = new NodeAgent(admin, NodeAgent.Settings.of(ServerJar.path(), Files.createTempDirectory("ragsearch-node")),
                NodeAgent.DEFAULT_NODE);
        agent.start();
        note("node agent: pods from the %s; memory limits %s", agent.runtime(), agent.memoryLimits());
        for (String id : List.of("operator-a", "operator-b")) {
            startOperator(id);
        }
        note("setup (plane, CRD, RBAC, node, 2 operators): %.1f s", since(t));
    }

    static void startOperator(String identity) throws Exception {
        Config config = Config.fromKubeconfig(Files.readString(plane.kubeconfigFile()));
        config.setImpersonateUsername("system:serviceaccount:" + ops + ":" + SERVICE_ACCOUNT);
        config.setImpersonateGroups("system:serviceaccounts", "system:serviceaccounts:" + ops, "system:authenticated");
        KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
        OperatorRuntime operator = new OperatorRuntime(client, new HttpPodAdminClient(),
                new RagSearchReconciler.Settings(Duration.ofSeconds(1), Duration.ofSeconds(30), PodLayout.ADMIN_PORT), Set.of(),
                new LeaderElection(LeaderElection.DEFAULT_LEASE, ops, identity, Duration.ofSeconds(15),
                        Duration.ofSeconds(10), Duration.ofSeconds(2), false),
                OperatorRuntime.Apply.SERVER_SIDE);
        clients.put(identity, client);
        operators.put(identity, operator);
        operator.start();
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (traffic != null) {
                traffic.close();
            }
        } finally {
            operators.values().forEach(OperatorRuntime::close);
            clients.values().forEach(KubernetesClient::close);
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
        Map<String, String> docs;
        try (Stream<Path> files = Files.list(Path.of("../examples/corpus/en"))) {
            docs = files.collect(Collectors.toMap(p -> p.getFileName().toString(), RealClusterEndToEndIT::read));
        }
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

        long start = System.nanoTime();
        admin.resources(RagSearch.class).inNamespace(ns).withName(NAME).edit(r -> {
            r.getSpec().resources.memory = "1200Mi";
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
    void whenTheLeadingOperatorStopsTheOtherTakesOverAndReconciles() {
        String leader = lease().getSpec().getHolderIdentity();
        assertTrue(operators.containsKey(leader), "the Lease names one of ours: " + leader);
        String other = operators.keySet().stream().filter(id -> !id.equals(leader)).findFirst().orElseThrow();
        long start = System.nanoTime();
        operators.remove(leader).close();
        clients.remove(leader).close();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> other.equals(lease().getSpec().getHolderIdentity()));
        double takeover = since(start);
        // the new leader reconciles: a child removed behind its back comes back
        String uid = admin.services().inNamespace(ns).withName(NAME).get().getMetadata().getUid();
        long deleted = System.nanoTime();
        admin.services().inNamespace(ns).withName(NAME).delete();
        Service back = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> admin.services().inNamespace(ns).withName(NAME).get(), s -> s != null && !uid.equals(s.getMetadata().getUid()));
        assertNotNull(back);
        note("leader %s stopped: %s holds the Lease after %.1f s, and recreated a deleted Service %.1f s after its deletion",
                leader, other, takeover, since(deleted));
    }

    @Test
    @Order(4)
    void deletingTheRagSearchLetsGarbageCollectionRemoveEveryChild() {
        List<String> children = owned();
        assertTrue(children.stream().anyMatch(c -> c.startsWith("ReplicaSet/")) && children.stream().anyMatch(c -> c.startsWith("Pod/")),
                String.valueOf(children));
        long start = System.nanoTime();
        admin.resources(RagSearch.class).inNamespace(ns).withName(NAME).delete();
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(250))
                .until(() -> owned().isEmpty() && agent.runningProcesses() == 0);
        note("RagSearch deleted: garbage collection removed %d objects in %.1f s: %s", children.size(), since(start), children);
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
        Service service = admin.services().inNamespace(ns).withName(NAME).get();
        if (service == null) {
            return List.of();
        }
        return admin.pods().inNamespace(ns).withLabels(service.getSpec().getSelector()).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null).filter(io.ragsearch.operator.reconcile.RolloutPods::ready)
                .map(p -> p.getStatus().getPodIP()).sorted().toList();
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

    static List<HasMetadata> parse(String yaml) {
        return Arrays.stream(yaml.split("(?m)^---\\s*$")).map(String::strip).filter(s -> s.contains("kind:"))
                .map(s -> (HasMetadata) Serialization.unmarshal(s)).toList();
    }

    static double since(long start) {
        return (System.nanoTime() - start) / 1e9;
    }

    static void note(String format, Object... args) {
        String line = String.format(java.util.Locale.ROOT, format, args);
        System.out.println("REAL E2E: " + line);
        summary.append("  ").append(line).append('\n');
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
