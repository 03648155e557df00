package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;

/**
 * The article embedding of pods that are started but not ready yet (a first start embeds every
 * article of its directory projects after its startup probe, behind readiness), read from their
 * /info. Absent when no pod embeds.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class EmbeddingStatus {

    @JsonPropertyDescription("Pods still embedding their article vectors.")
    public Integer pods;

    @JsonPropertyDescription("The pod furthest behind.")
    @Size(max = SchemaBounds.OBJECT_NAME)
    public String pod;

    @JsonPropertyDescription("Articles with a vector on that pod (read from its vector cache or embedded).")
    public Integer articlesEmbedded;

    @JsonPropertyDescription("Articles that pod needs a vector for.")
    public Integer articlesTotal;

    @JsonPropertyDescription("Estimated seconds until that pod has every vector, at the rate it measured (absent until known).")
    public Long secondsLeft;
}
