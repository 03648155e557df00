package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class Models {
    @JsonPropertyDescription("Embedding model (default: builtin multilingual-e5-small where the image carries it, else all-minilm-l6-v2).")
    public ModelSource embedding;

    @JsonPropertyDescription("Cross-encoder reranker. Absent: projects do not rerank. builtin minilm-pair is the cost stand-in.")
    public ModelSource reranker;
}
