package io.ragsearch.operator.spec;

import io.ragsearch.operator.model.Autoscaling;
import io.ragsearch.operator.model.RagSearchSpec;
import io.ragsearch.operator.model.SchemaBounds;

import java.util.List;

/**
 * spec.autoscaling: the schema's rules again (render has no API server), and what the schema
 * cannot see: a CPU target needs a CPU request, which only spec.resources.cpu gives the pods
 * (without it the HorizontalPodAutoscaler reports "missing request for cpu" and never scales).
 */
final class AutoscaleCheck {
    private AutoscaleCheck() {
    }

    static CheckedSpec.Autoscale check(RagSearchSpec spec, List<String> problems) {
        Autoscaling a = spec.autoscaling;
        if (a == null) {
            return null;
        }
        int min = a.minReplicas == null ? SpecDefaults.AUTOSCALE_MIN_REPLICAS : a.minReplicas;
        int max = a.maxReplicas == null ? 0 : a.maxReplicas;
        int before = problems.size();
        if (a.maxReplicas == null) {
            problems.add("spec.autoscaling.maxReplicas is required");
        } else if (max < 1 || max > SchemaBounds.REPLICAS) {
            problems.add("spec.autoscaling.maxReplicas must be in [1, " + SchemaBounds.REPLICAS + "], got " + max);
        }
        if (min < 1 || min > SchemaBounds.REPLICAS) {
            problems.add("spec.autoscaling.minReplicas must be in [1, " + SchemaBounds.REPLICAS + "], got " + min);
        } else if (a.maxReplicas != null && min > max) {
            problems.add("spec.autoscaling.minReplicas " + min + " exceeds maxReplicas " + max);
        }
        if (a.targetCPUUtilizationPercentage == null && a.targetMemoryUtilizationPercentage == null) {
            problems.add("spec.autoscaling needs a target: targetCPUUtilizationPercentage and/or targetMemoryUtilizationPercentage");
        }
        percent("targetCPUUtilizationPercentage", a.targetCPUUtilizationPercentage, problems);
        percent("targetMemoryUtilizationPercentage", a.targetMemoryUtilizationPercentage, problems);
        if (a.targetCPUUtilizationPercentage != null && (spec.resources == null || spec.resources.cpu == null)) {
            problems.add("spec.autoscaling.targetCPUUtilizationPercentage needs spec.resources.cpu: utilization is a share of "
                    + "the pods' CPU request, and without one the autoscaler cannot measure it");
        }
        int window = a.scaleDownStabilizationSeconds == null ? SpecDefaults.SCALE_DOWN_STABILIZATION_SECONDS
                : a.scaleDownStabilizationSeconds;
        if (window < 0 || window > SchemaBounds.STABILIZATION_MAX_SECONDS) {
            problems.add("spec.autoscaling.scaleDownStabilizationSeconds must be in [0, " + SchemaBounds.STABILIZATION_MAX_SECONDS
                    + "], got " + window);
        }
        return problems.size() > before ? null
                : new CheckedSpec.Autoscale(min, max, a.targetCPUUtilizationPercentage, a.targetMemoryUtilizationPercentage, window);
    }

    private static void percent(String field, Integer value, List<String> problems) {
        if (value != null && (value < 1 || value > SchemaBounds.UTILIZATION_PERCENT_MAX)) {
            problems.add("spec.autoscaling." + field + " must be in [1, " + SchemaBounds.UTILIZATION_PERCENT_MAX + "], got " + value);
        }
    }
}
