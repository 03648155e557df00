package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class Gate {
    @Min(0)
    @Max(1)
    @JsonPropertyDescription("Relevance in [0, 1] below which a search answers \"no supporting documents\" (server default 0.5).")
    public Double threshold;
}
