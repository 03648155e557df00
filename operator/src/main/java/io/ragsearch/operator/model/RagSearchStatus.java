package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.model.annotation.LabelSelector;
import io.fabric8.kubernetes.model.annotation.StatusReplicas;

import java.util.ArrayList;
import java.util.List;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class RagSearchStatus {
    public Long observedGeneration;

    @Size(max = SchemaBounds.CONDITIONS)
    @JsonPropertyDescription("Ready, Calibrated, MemoryInsufficient, ConcurrencyClamped, InvalidSpec, DatabaseReachable, Verified, ReconcileFailed.")
    public List<Condition> conditions = new ArrayList<>();

    @JsonPropertyDescription("The rerank concurrency decision and the measurement behind it.")
    public RerankStatus rerank;

    @StatusReplicas
    @JsonPropertyDescription("Desired pods (the scale subresource's status.replicas).")
    public Integer replicas;

    @LabelSelector
    @Size(max = SchemaBounds.STATUS_TEXT)
    @JsonPropertyDescription("Label selector of the serving pods, as text (the scale subresource's selector: what an autoscaler measures).")
    public String selector;

    @JsonPropertyDescription("Ready pods running the current pod template.")
    public Integer readyReplicas;

    @JsonPropertyDescription("Article embedding of pods started but not ready yet (absent when none embeds).")
    public EmbeddingStatus embedding;

    @JsonPropertyDescription("In-cluster MCP endpoint.")
    @Size(max = SchemaBounds.STATUS_TEXT)
    public String endpoint;

    @JsonPropertyDescription("The verification of a new version (with spec.verification).")
    public VerificationStatus verification;

    @JsonPropertyDescription("The last change of the pods' memory or CPU: in place or rolled, and the re-tune it brought.")
    public ResizeStatus resize;
}
