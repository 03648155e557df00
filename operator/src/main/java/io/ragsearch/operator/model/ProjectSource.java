package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/** Either the database (large corpora, ingested with `ragsearch ingest`) or a ConfigMap of Markdown files. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "(has(self.database) && self.database) != has(self.configMap)",
        message = "set exactly one of database: true or configMap")
public class ProjectSource {
    @JsonPropertyDescription("Read the project from spec.database (needs spec.database).")
    public Boolean database;

    @Size(max = SchemaBounds.OBJECT_NAME)
    @JsonPropertyDescription("ConfigMap whose keys are Markdown/text files (small corpora; 1 MiB per ConfigMap).")
    public String configMap;
}
