package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class Project {
    /** Same rule as the server's project names, so a name the CRD accepts the server accepts. */
    public static final String NAME_PATTERN = "^[a-z0-9][a-z0-9._-]{0,62}$";

    @Required
    @Pattern(NAME_PATTERN)
    @Size(max = Bounds.NAME)
    @JsonPropertyDescription("Name agents pass to the search tools.")
    public String name;

    @Size(max = Bounds.DESCRIPTION)
    @JsonPropertyDescription("What the collection holds; agents read it in list_projects.")
    public String description;

    @Required
    public ProjectSource source;

    @Pattern("^(auto|ko|en)$")
    @Size(max = 4)
    @JsonPropertyDescription("Document language: auto (default), ko, en.")
    public String language;

    @Pattern("^(auto|lexical|hybrid)$")
    @Size(max = 7)
    @JsonPropertyDescription("Retrieval: auto (default; hybrid only where the embedding model covers the language), lexical, hybrid.")
    public String retrieval;

    @JsonPropertyDescription("This project's relevance gate; overrides spec.gate.")
    public Gate gate;
}
