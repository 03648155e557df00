package io.ragsearch.sim.node;

import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;
import java.util.Map;

/**
 * Which pods our node takes, decided from the Pod alone: there is no scheduler, so the node binds
 * the pods meant for the default one whose node selector its labels satisfy, and whose requests
 * the node's allocatable can hold at all (a scheduler's resource fit, for the pod alone: what its
 * other pods hold is not weighed, nor are affinity and taints: there is one node, and a Binding
 * ignores taints).
 */
final class Placement {
    static final String DEFAULT_SCHEDULER = "default-scheduler";

    private Placement() {
    }

    static boolean fits(Pod pod, Map<String, String> nodeLabels) {
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            return false;
        }
        String scheduler = pod.getSpec().getSchedulerName();
        if (scheduler != null && !scheduler.isEmpty() && !DEFAULT_SCHEDULER.equals(scheduler)) {
            return false;
        }
        Map<String, String> selector = pod.getSpec().getNodeSelector();
        return selector == null || selector.entrySet().stream().allMatch(e -> e.getValue().equals(nodeLabels.get(e.getKey())));
    }

    /**
     * Why no node of this cluster can run the pod — its requests (its containers' together, or its
     * largest init container's) exceed the node's allocatable — as a scheduler says it; null when it fits.
     */
    static String tooLarge(Pod pod, long allocatableMemoryBytes, long allocatableCpuMillis) {
        long memory = 0;
        long cpu = 0;
        for (var c : pod.getSpec().getContainers()) {
            memory += PodResize.bytes(requests(c), "memory");
            cpu += PodResize.millis(requests(c), "cpu");
        }
        for (var c : pod.getSpec().getInitContainers() == null ? List.<io.fabric8.kubernetes.api.model.Container>of()
                : pod.getSpec().getInitContainers()) {
            memory = Math.max(memory, PodResize.bytes(requests(c), "memory"));
            cpu = Math.max(cpu, PodResize.millis(requests(c), "cpu"));
        }
        List<String> missing = new java.util.ArrayList<>();
        if (cpu > allocatableCpuMillis) {
            missing.add("Insufficient cpu (requested " + cpu + "m, allocatable " + allocatableCpuMillis + "m)");
        }
        if (memory > allocatableMemoryBytes) {
            missing.add("Insufficient memory (requested " + memory + ", allocatable " + allocatableMemoryBytes + ")");
        }
        return missing.isEmpty() ? null : "0/1 nodes are available: " + String.join(", ", missing);
    }

    private static Map<String, io.fabric8.kubernetes.api.model.Quantity> requests(io.fabric8.kubernetes.api.model.Container c) {
        return c.getResources() == null ? null : c.getResources().getRequests();
    }

    /** A pod that has run to its end is not started again. */
    static boolean finished(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }
}
