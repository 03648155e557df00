package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class PvcModel {
    @Required
    @Size(max = SchemaBounds.OBJECT_NAME)
    @JsonPropertyDescription("PersistentVolumeClaim name in the RagSearch's namespace.")
    public String claimName;

    @Size(max = SchemaBounds.PATH)
    @JsonPropertyDescription("Directory inside the volume (default: its root).")
    public String path;
}
