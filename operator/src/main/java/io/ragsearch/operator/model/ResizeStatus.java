package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;

/** The last change of the pods' memory or CPU: resized in place or rolled, and the re-tune it brought. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ResizeStatus {
    @JsonPropertyDescription("InPlace (the running pods resized through their resize subresource) or Roll.")
    @Size(max = SchemaBounds.STATUS_TEXT)
    public String mode;
    @JsonPropertyDescription("Why this mode: ResizedInPlace, InPlaceResizeUnsupported, InPlaceResizeRefused, DecreaseBelowPodUse, RolledWithOtherChanges.")
    @Size(max = SchemaBounds.STATUS_TEXT)
    public String reason;
    @JsonPropertyDescription("The memory limit the pods are resized to.")
    public Long memoryLimitBytes;
    @JsonPropertyDescription("The CPU limit the pods are resized to, in millicores (absent: none).")
    public Long cpuLimitMillis;
    @JsonPropertyDescription("The memory limit of the Deployment's pod template (kept while the pods are resized in place).")
    public Long templateMemoryLimitBytes;
    @JsonPropertyDescription("Pods of the current template that run at the spec's limits.")
    public Integer podsResized;
    @JsonPropertyDescription("Pods of the current template.")
    public Integer pods;
    @JsonPropertyDescription("The lowest rerank concurrency the resized pods report in force (their /calibration live block).")
    public Integer concurrency;
    @JsonPropertyDescription("When the spec asked for these limits (the RagSearch's last spec write, else when the operator saw it).")
    @Size(max = SchemaBounds.STATUS_TEXT)
    public String requestedAt;
    @JsonPropertyDescription("When the last pod re-tuned its rerank concurrency to them.")
    @Size(max = SchemaBounds.STATUS_TEXT)
    public String retunedAt;
    @JsonPropertyDescription("retunedAt − requestedAt, in seconds.")
    public Double secondsToRetune;
    @JsonPropertyDescription("Why the cluster refused a resize to these limits (then they roll).")
    @Size(max = SchemaBounds.STATUS_TEXT)
    public String refused;
}
