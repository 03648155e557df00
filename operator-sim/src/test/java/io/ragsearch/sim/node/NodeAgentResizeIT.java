package io.ragsearch.sim.node;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.ragsearch.operator.reconcile.PodResizeClient;
import io.ragsearch.sim.cluster.ServerJar;
import io.ragsearch.sim.plane.ControlPlane;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Our node agent resizes a running pod as a kubelet does, judged by the real API server: it
 * reports the container's resources (without which the API server refuses a resize), takes a
 * resize through the pod's {@code resize} subresource, applies it to the running process's cgroup
 * (same pod UID, same container start), reports allocatedResources, observedGeneration and the
 * resize conditions. A resize beyond the node's allocatable is refused by the API server itself
 * (Kubernetes 1.37's PodResize admission); the agent's own Infeasible / Deferred decision
 * ({@link PodResize}, PodResizeTest) covers what the API server cannot see.
 */
class NodeAgentResizeIT {
    static final String NODE = "ragsearch-node-resize";
    private static final long MIB = 1L << 20;

    @Test
    void resizesARunningPodInPlaceAndTheApiServerRefusesOneBeyondTheNode() throws Exception {
        ControlPlane plane = ControlPlane.get();
        String ns = plane.namespace("node-resize");
        Path work = Files.createTempDirectory("ragsearch-node-resize");
        try (KubernetesClient admin = plane.adminClient();
             NodeAgent agent = new NodeAgent(admin, NodeAgent.Settings.of(ServerJar.path(), work), NODE)) {
            agent.start();
            admin.pods().inNamespace(ns).resource(pod(ns, "sized")).create();
            Pod ready = await("the pod Ready").atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(250))
                    .until(() -> admin.pods().inNamespace(ns).withName("sized").get(), p -> condition(p, "Ready")
                            .map(c -> "True".equals(c.getStatus())).orElse(false));
            ContainerStatus before = ready.getStatus().getContainerStatuses().get(0);
            assertNotNull(before.getResources(), "the container's resources are reported (a resize needs them)");
            assertEquals(1500 * MIB, bytes(before.getResources().getLimits().get("memory")));
            assertEquals(1500 * MIB, bytes(before.getAllocatedResources().get("memory")));
            assertEquals(ready.getMetadata().getGeneration(), ready.getStatus().getObservedGeneration());
            String startedAt = before.getState().getRunning().getStartedAt();

            PodResizeClient resizer = new PodResizeClient(admin);
            assertTrue(resizer.support().inPlace(), resizer.support().cluster());
            long t0 = System.nanoTime();
            PodResizeClient.Result down = resizer.resize(ready, "server", "1200Mi", null);
            assertTrue(down.applied(), "the API server takes the resize: " + down.refusal());
            Pod resized = awaitResources(admin, ns, 1200 * MIB);
            System.out.printf("NODE RESIZE: 1500Mi → 1200Mi applied and reported in %.1f s%n", (System.nanoTime() - t0) / 1e9);
            ContainerStatus after = resized.getStatus().getContainerStatuses().get(0);
            assertEquals(ready.getMetadata().getUid(), resized.getMetadata().getUid());
            assertEquals(startedAt, after.getState().getRunning().getStartedAt(), "the container was not restarted");
            assertEquals(0, after.getRestartCount());
            assertEquals(1200 * MIB, bytes(after.getAllocatedResources().get("memory")));
            assertTrue(resized.getMetadata().getGeneration() > ready.getMetadata().getGeneration(), "a resize is a new generation");
            assertEquals(resized.getMetadata().getGeneration(), resized.getStatus().getObservedGeneration());
            assertTrue(condition(resized, "PodResizeInProgress").isEmpty() && condition(resized, "PodResizePending").isEmpty());
            if (agent.memoryLimitsEnforced()) {
                assertEquals(1200 * MIB, cgroupLimit(agent), "the running process's cgroup has the new limit");
            }

            // Beyond the node's allocatable: Kubernetes 1.37's API server refuses it itself (its PodResize admission
            // checks the Node's allocatable), so it never reaches the kubelet; the pod runs on as it was.
            PodResizeClient.Result huge = resizer.resize(resized, "server", "1000Gi", null);
            System.out.println("NODE RESIZE: 1000Gi → " + huge.refusal());
            assertEquals(403, huge.status(), huge.refusal());
            assertTrue(huge.refusal().contains("allocatable"), huge.refusal());
            Pod pending = admin.pods().inNamespace(ns).withName("sized").get();
            assertEquals(1200 * MIB, bytes(pending.getSpec().getContainers().get(0).getResources().getLimits().get("memory")),
                    "the refused resize changed nothing");
            assertTrue(condition(pending, "PodResizePending").isEmpty());

            PodResizeClient.Result up = resizer.resize(pending, "server", "2000Mi", null);
            assertTrue(up.applied(), up.refusal());
            Pod grown = awaitResources(admin, ns, 2000 * MIB);
            assertTrue(condition(grown, "PodResizePending").isEmpty(), "a feasible resize clears the pending one");
            assertEquals(startedAt, grown.getStatus().getContainerStatuses().get(0).getState().getRunning().getStartedAt());
            if (agent.memoryLimitsEnforced()) {
                assertEquals(2000 * MIB, cgroupLimit(agent));
            }
            admin.pods().inNamespace(ns).withName("sized").delete();
            await("the pod gone").atMost(Duration.ofSeconds(90)).until(() -> admin.pods().inNamespace(ns).withName("sized").get() == null);
        }
    }

    private static Pod awaitResources(KubernetesClient admin, String ns, long memory) {
        return await("status.containerStatuses[0].resources at " + (memory / MIB) + " MiB, no resize in progress")
                .atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> admin.pods().inNamespace(ns).withName("sized").get(), p -> {
                    ContainerStatus cs = p.getStatus().getContainerStatuses().get(0);
                    return cs.getResources() != null && bytes(cs.getResources().getLimits().get("memory")) == memory
                            && condition(p, "PodResizeInProgress").isEmpty()
                            && p.getMetadata().getGeneration().equals(p.getStatus().getObservedGeneration());
                });
    }

    private static long cgroupLimit(NodeAgent agent) throws Exception {
        ProcessHandle server = agent.processes().get(0);
        String memory = Files.readAllLines(Path.of("/proc/" + server.pid() + "/cgroup")).stream()
                .filter(l -> l.split(":", 3)[1].equals("memory")).findFirst().orElseThrow().split(":", 3)[2];
        return Long.parseLong(Files.readString(Path.of("/sys/fs/cgroup/memory" + memory, "memory.limit_in_bytes")).strip());
    }

    private static Optional<PodCondition> condition(Pod p, String type) {
        return p.getStatus() == null || p.getStatus().getConditions() == null ? Optional.empty()
                : p.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    private static long bytes(Quantity q) {
        return Quantity.getAmountInBytes(q).longValueExact();
    }

    /** NodeAgentCommandIT's pod for this node at 1500Mi, memory resizable without a restart. */
    static Pod pod(String ns, String name) {
        return new PodBuilder(NodeAgentCommandIT.pod(ns, name, NODE)).editSpec().editFirstContainer()
                .withNewResources().addToLimits("memory", new Quantity("1500Mi")).addToRequests("memory", new Quantity("1500Mi"))
                .endResources()
                .addNewResizePolicy().withResourceName("memory").withRestartPolicy("NotRequired").endResizePolicy()
                .endContainer().endSpec().build();
    }
}
