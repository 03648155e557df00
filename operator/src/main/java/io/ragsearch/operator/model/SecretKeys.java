package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** A Secret in the RagSearch's namespace. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SecretKeys {
    @Required
    @Size(max = SchemaBounds.OBJECT_NAME)
    @JsonPropertyDescription("Secret name.")
    public String name;
}
