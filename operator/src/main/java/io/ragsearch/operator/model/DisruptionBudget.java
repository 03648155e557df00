package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class DisruptionBudget {
    @Min(0)
    @Max(SchemaBounds.REPLICAS)
    @JsonPropertyDescription("Pods that must stay up during voluntary disruptions (default 1).")
    public Integer minAvailable;
}
