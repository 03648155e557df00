package io.ragsearch.sim.node;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;

/**
 * The kubelet's decision on a resize (Kubernetes 1.35+, in-place pod resize), pure: the pod's
 * spec asks for other resources than the node allocated to its container. A request the node's
 * allocatable cannot hold at all is Infeasible (it stays pending until the spec changes); one
 * whose larger requests would fit the node but not beside the other pods now is Deferred;
 * otherwise the node takes it (allocates it, then actuates it on the running container's cgroup).
 * Only a request that grows is weighed against the other pods: a kubelet takes a resize that
 * increases no request at once (its pod was admitted at more), and a request that stays was
 * admitted with the pod — this node binds without a scheduler's fit, so its pods' CPU requests
 * together may exceed its cores, and weighing those again would defer every resize. For the same
 * reason a request growing back to what the pod was admitted with is taken at once too: the way
 * back from an in-place decrease (cpu 2 → 1 → 2) must not be deferred by an over-commit this node
 * made itself (a node the scheduler filled within its cores has that room, unless another pod
 * took it meanwhile).
 */
public final class PodResize {

    /** What the kubelet does with a pod's spec this pass. */
    enum Kind { NONE, ACCEPT, INFEASIBLE, DEFERRED }

    record Decision(Kind kind, String message) {
    }

    /** The node's allocatable memory and CPU, and what the other pods of the node hold. */
    record Node(long allocatableMemoryBytes, long allocatableCpuMillis, long othersMemoryBytes, long othersCpuMillis) {
    }

    private PodResize() {
    }

    static Decision decide(ResourceRequirements allocated, ResourceRequirements desired, Node node) {
        return decide(allocated, allocated, desired, node);
    }

    /** @param admitted the container's resources when the node admitted the pod (its spec then) */
    static Decision decide(ResourceRequirements admitted, ResourceRequirements allocated, ResourceRequirements desired, Node node) {
        if (sameCpuAndMemory(allocated, desired)) {
            return new Decision(Kind.NONE, null);
        }
        long memory = bytes(desired.getRequests(), "memory");
        long cpu = millis(desired.getRequests(), "cpu");
        if (memory > node.allocatableMemoryBytes()) {
            return new Decision(Kind.INFEASIBLE, "the node cannot hold it: memory requested " + memory
                    + ", node allocatable " + node.allocatableMemoryBytes());
        }
        if (cpu > node.allocatableCpuMillis()) {
            return new Decision(Kind.INFEASIBLE, "the node cannot hold it: cpu requested " + cpu + "m, node allocatable "
                    + node.allocatableCpuMillis() + "m");
        }
        boolean moreMemory = memory > Math.max(bytes(allocated.getRequests(), "memory"), bytes(admitted.getRequests(), "memory"));
        boolean moreCpu = cpu > Math.max(millis(allocated.getRequests(), "cpu"), millis(admitted.getRequests(), "cpu"));
        if (moreMemory && memory + node.othersMemoryBytes() > node.allocatableMemoryBytes()
                || moreCpu && cpu + node.othersCpuMillis() > node.allocatableCpuMillis()) {
            return new Decision(Kind.DEFERRED, "not enough left beside the node's other pods now");
        }
        return new Decision(Kind.ACCEPT, null);
    }

    /** Only CPU and memory are resizable: the rest of the requirements never differ here. */
    static boolean sameCpuAndMemory(ResourceRequirements a, ResourceRequirements b) {
        for (String r : new String[] {"cpu", "memory"}) {
            if (!same(get(a.getRequests(), r), get(b.getRequests(), r)) || !same(get(a.getLimits(), r), get(b.getLimits(), r))) {
                return false;
            }
        }
        return true;
    }

    private static Quantity get(Map<String, Quantity> m, String r) {
        return m == null ? null : m.get(r);
    }

    private static boolean same(Quantity a, Quantity b) {
        if (a == null || b == null) {
            return Objects.equals(a, b);
        }
        return Quantity.getAmountInBytes(a).compareTo(Quantity.getAmountInBytes(b)) == 0;
    }

    static long bytes(Map<String, Quantity> m, String r) {
        Quantity q = get(m, r);
        return q == null ? 0 : Quantity.getAmountInBytes(q).setScale(0, java.math.RoundingMode.CEILING).longValueExact();
    }

    public static long millis(Map<String, Quantity> m, String r) {
        Quantity q = get(m, r);
        return q == null ? 0 : Quantity.getAmountInBytes(q).multiply(BigDecimal.valueOf(1000))
                .setScale(0, java.math.RoundingMode.CEILING).longValueExact();
    }
}
