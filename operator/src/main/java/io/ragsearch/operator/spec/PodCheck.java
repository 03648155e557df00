package io.ragsearch.operator.spec;

import io.ragsearch.operator.model.PodSettings;
import io.ragsearch.operator.model.SchemaBounds;
import io.ragsearch.operator.model.RagSearchSpec;
import io.ragsearch.operator.naming.Labels;

import java.util.List;
import java.util.Set;

/** What the schema cannot check about the pods: the operator's own labels stay its own, and drains stay possible. */
final class PodCheck {
    private PodCheck() {
    }

    /** @param replicasField where {@code replicas}, the fewest pods there may be, comes from (for the message) */
    static void check(RagSearchSpec spec, int replicas, String replicasField, List<String> problems) {
        labels(spec.pod, problems);
        disruptionBudget(spec, replicas, replicasField, problems);
    }

    private static void labels(PodSettings pod, List<String> problems) {
        if (pod == null) {
            return;
        }
        // The schema's bound, checked here too: render has no API server to apply it (a negative sleep, a day-long drain).
        int max = SchemaBounds.PRE_STOP_DELAY_MAX_SECONDS;
        if (pod.preStopDelaySeconds != null && (pod.preStopDelaySeconds < 0 || pod.preStopDelaySeconds > max)) {
            problems.add("spec.pod.preStopDelaySeconds must be in [0, " + max + "], got " + pod.preStopDelaySeconds);
        }
        int maxShutdown = SchemaBounds.SHUTDOWN_MAX_SECONDS;
        if (pod.shutdownSeconds != null && (pod.shutdownSeconds < 1 || pod.shutdownSeconds > maxShutdown)) {
            problems.add("spec.pod.shutdownSeconds must be in [1, " + maxShutdown + "], got " + pod.shutdownSeconds);
        }
        for (String key : pod.labels == null ? Set.<String>of() : pod.labels.keySet()) {
            if (Labels.reservedKey(key)) {
                problems.add("spec.pod.labels: '" + key + "' is the operator's own label (app.kubernetes.io/name, "
                        + "app.kubernetes.io/instance, app.kubernetes.io/managed-by and ragsearch.io/ keys are set by it)");
            }
        }
        for (String key : pod.annotations == null ? Set.<String>of() : pod.annotations.keySet()) {
            if (key.startsWith(Labels.KEY_PREFIX)) {
                problems.add("spec.pod.annotations: '" + key + "' is the operator's own (ragsearch.io/ keys are set by it)");
            }
        }
    }

    private static void disruptionBudget(RagSearchSpec spec, int replicas, String replicasField, List<String> problems) {
        if (spec.podDisruptionBudget == null) {
            return;
        }
        Integer given = spec.podDisruptionBudget.minAvailable;
        int minAvailable = given == null ? SpecDefaults.MIN_AVAILABLE : given;
        if (minAvailable < 0) {
            problems.add("spec.podDisruptionBudget.minAvailable must be 0 or more");
        } else if (replicas > 0 && minAvailable >= replicas) {
            // Such a budget lets no pod be evicted: every node drain and cluster upgrade would hang on it.
            problems.add("spec.podDisruptionBudget.minAvailable " + minAvailable + " with " + replicasField + " " + replicas
                    + " would block every node drain (no pod may ever be evicted); use at most " + (replicas - 1)
                    + (replicas == 1 ? ", or run 2 replicas" : "") + (given == null ? " (minAvailable defaults to 1)" : ""));
        }
    }
}
