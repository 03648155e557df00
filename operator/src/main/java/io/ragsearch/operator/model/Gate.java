package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class Gate {
    @Min(0)
    @Max(1)
    @JsonPropertyDescription("Best relevance in [0, 1] a query needs; below it a search answers \"no supporting documents\" (server default by evidence: lexical 0.45; multilingual-e5 vectors, hybrid or vector, 0.5; all-minilm-l6-v2 vectors hybrid 0.35, vector 0.40; a trained cross-encoder 0.5).")
    public Double threshold;
}
