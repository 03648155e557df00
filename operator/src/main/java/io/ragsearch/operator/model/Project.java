package io.ragsearch.operator.model;

import io.ragsearch.contract.settings.Bounds;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class Project {
    @Required
    @Pattern(Bounds.PROJECT_NAME_REGEX)
    @Size(max = Bounds.PROJECT_NAME_MAX_LENGTH)
    @JsonPropertyDescription("Name agents pass to the search tools.")
    public String name;

    @Size(max = SchemaBounds.DESCRIPTION)
    @JsonPropertyDescription("What the collection holds; agents read it in list_projects.")
    public String description;

    @Required
    public ProjectSource source;

    @Pattern(Bounds.LANGUAGE_REGEX)
    @Size(max = 4)
    @JsonPropertyDescription("Document language: auto (default), ko, en.")
    public String language;

    @Pattern(Bounds.RETRIEVAL_REGEX)
    @Size(max = 7)
    @JsonPropertyDescription("Retrieval: auto (default; hybrid only where the embedding model covers the language), lexical, vector, hybrid.")
    public String retrieval;

    @JsonPropertyDescription("This project's relevance gate; overrides spec.gate.")
    public Gate gate;
}
