package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.Pod;
import io.ragsearch.operator.naming.Labels;

import java.util.Collection;
import java.util.List;

/** The pods of one RagSearch as the informer sees them, sorted by what the reconciler asks. */
public record RolloutPods(List<Pod> pods) {

    public RolloutPods(Collection<Pod> pods) {
        this(List.copyOf(pods));
    }

    /** Ready, not terminating, with an address: pods that serve and whose admin port can be read. */
    public static boolean ready(Pod pod) {
        if (pod.getMetadata().getDeletionTimestamp() != null || pod.getStatus() == null
                || pod.getStatus().getPodIP() == null || pod.getStatus().getConditions() == null) {
            return false;
        }
        return pod.getStatus().getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    /** Running with an address but not ready, not terminating: pods still starting (or embedding) whose admin port answers. */
    public List<Pod> notReadyWith(String label, String value) {
        return pods.stream()
                .filter(p -> !ready(p) && p.getMetadata().getDeletionTimestamp() == null && p.getStatus() != null
                        && p.getStatus().getPodIP() != null && "Running".equals(p.getStatus().getPhase()))
                .filter(p -> p.getMetadata().getLabels() != null && value.equals(p.getMetadata().getLabels().get(label)))
                .toList();
    }

    public List<Pod> readyWith(String label, String value) {
        return pods.stream()
                .filter(RolloutPods::ready)
                .filter(p -> p.getMetadata().getLabels() != null && value.equals(p.getMetadata().getLabels().get(label)))
                .toList();
    }

    /** Ready serving pods of the current pod template (a verification's candidate pods do not serve). */
    public int readyOfTemplate(String configHash) {
        return (int) readyWith(Labels.CONFIG_HASH, configHash).stream()
                .filter(p -> !Labels.ROLE_CANDIDATE.equals(p.getMetadata().getLabels().get(Labels.LABEL_ROLE)))
                .count();
    }
}
