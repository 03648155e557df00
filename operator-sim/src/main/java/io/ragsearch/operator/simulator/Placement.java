package io.ragsearch.operator.simulator;

import io.fabric8.kubernetes.api.model.Pod;

import java.util.Map;

/**
 * Which pods our node takes, decided from the Pod alone: there is no scheduler, so the node binds
 * the pods meant for the default one whose node selector its labels satisfy. Affinity, taints and
 * resources are not weighed: there is one node, and a Binding ignores taints.
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

    /** A pod that has run to its end is not started again. */
    static boolean finished(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }
}
