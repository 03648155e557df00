package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * A HorizontalPodAutoscaler the operator owns for the RagSearch. It scales the RagSearch itself
 * (its scale subresource moves spec.replicas); the operator writes the Deployment's replicas from
 * spec.replicas, so the two never disagree.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.minReplicas) || self.minReplicas <= self.maxReplicas",
        message = "minReplicas must not exceed maxReplicas")
@ValidationRule(value = "has(self.targetCPUUtilizationPercentage) || has(self.targetMemoryUtilizationPercentage)",
        message = "name a target: targetCPUUtilizationPercentage and/or targetMemoryUtilizationPercentage")
public class Autoscaling {
    @Min(1)
    @Max(SchemaBounds.REPLICAS)
    @JsonPropertyDescription("Fewest pods the autoscaler keeps (default 1).")
    public Integer minReplicas;

    @Required
    @Min(1)
    @Max(SchemaBounds.REPLICAS)
    @JsonPropertyDescription("Most pods the autoscaler makes.")
    public Integer maxReplicas;

    @Min(1)
    @Max(SchemaBounds.UTILIZATION_PERCENT_MAX)
    @JsonPropertyDescription("Average CPU use of the pods, in percent of their CPU request (spec.resources.cpu), the autoscaler keeps them at.")
    public Integer targetCPUUtilizationPercentage;

    @Min(1)
    @Max(SchemaBounds.UTILIZATION_PERCENT_MAX)
    @JsonPropertyDescription("Average memory working set of the pods, in percent of their memory request, the autoscaler keeps them at.")
    public Integer targetMemoryUtilizationPercentage;

    @Min(0)
    @Max(SchemaBounds.STABILIZATION_MAX_SECONDS)
    @JsonPropertyDescription("How long the autoscaler waits on lower recommendations before it removes pods (default 300, "
            + "the HorizontalPodAutoscaler's own): a pod removed is a warm index, cache and calibration lost.")
    public Integer scaleDownStabilizationSeconds;
}
