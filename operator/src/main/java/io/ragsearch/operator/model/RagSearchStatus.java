package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Condition;

import java.util.ArrayList;
import java.util.List;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class RagSearchStatus {
    public Long observedGeneration;

    @Size(max = SchemaBounds.CONDITIONS)
    @JsonPropertyDescription("Ready, Calibrated, MemoryInsufficient, ConcurrencyClamped, InvalidSpec, DatabaseReachable, Verified.")
    public List<Condition> conditions = new ArrayList<>();

    @JsonPropertyDescription("The rerank concurrency decision and the measurement behind it.")
    public RerankStatus rerank;

    @JsonPropertyDescription("Desired pods.")
    public Integer replicas;

    @JsonPropertyDescription("Ready pods running the current pod template.")
    public Integer readyReplicas;

    @JsonPropertyDescription("Article embedding of pods started but not ready yet (absent when none embeds).")
    public EmbeddingStatus embedding;

    @JsonPropertyDescription("In-cluster MCP endpoint.")
    @Size(max = SchemaBounds.STATUS_TEXT)
    public String endpoint;

    @JsonPropertyDescription("The verification of a new version (with spec.verification).")
    public VerificationStatus verification;
}
