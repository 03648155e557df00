package io.ragsearch.sim.node;

import io.fabric8.kubernetes.api.model.Pod;

/**
 * Whether a Service would route to a pod, as the endpoints controller decides it: the pod has an
 * address, is not going away and reports its Ready condition true. Our own rule, not the
 * operator's: a kubelet knows nothing of the operator that made the pod.
 */
public final class EndpointReadiness {
    private EndpointReadiness() {
    }

    public static boolean routable(Pod pod) {
        if (pod.getMetadata().getDeletionTimestamp() != null || pod.getStatus() == null
                || pod.getStatus().getPodIP() == null || pod.getStatus().getConditions() == null) {
            return false;
        }
        return pod.getStatus().getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }
}
