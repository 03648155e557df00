package io.ragsearch.operator.model;

import io.ragsearch.contract.settings.Bounds;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.ragsearch.contract.BuiltinModels;

/** Exactly one of builtin, pvc or url. A URL needs its sha256: the init container verifies it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "[has(self.builtin), has(self.pvc), has(self.url)].filter(x, x).size() == 1",
        message = "set exactly one of builtin, pvc, url")
@ValidationRule(value = "!has(self.url) || has(self.sha256)", message = "a url needs its sha256")
public class ModelSource {
    @Size(max = Bounds.PROJECT_NAME_MAX_LENGTH)
    @JsonPropertyDescription("A model shipped in the server image: " + BuiltinModels.EMBEDDING_E5 + " (embedding, Korean and English; the default), "
            + BuiltinModels.EMBEDDING_MINILM + " (embedding, English only), "
            + BuiltinModels.RERANK_STAND_IN + " (reranker cost stand-in).")
    public String builtin;

    @JsonPropertyDescription("A model directory (model.onnx + tokenizer.json) on a PersistentVolumeClaim, mounted read-only.")
    public PvcModel pvc;

    @Pattern("^https?://.+")
    @Size(max = SchemaBounds.URL)
    @JsonPropertyDescription("A .zip archive of model.onnx + tokenizer.json, fetched and checked by an init container (ragsearch fetch).")
    public String url;

    @Pattern("^[a-f0-9]{64}$")
    @Size(max = 64)
    @JsonPropertyDescription("Hex sha256 of the file at url.")
    public String sha256;

    @Min(Bounds.MAX_SEQ_LEN_MIN)
    @Max(Bounds.MAX_SEQ_LEN_MAX)
    @JsonPropertyDescription("Longest input in tokens; longer is cut. Reranker: a query and article pair (default 256 for builtin "
            + BuiltinModels.RERANK_STAND_IN + ", 512 for pvc and url), and calibration measures at this length. Embedding: "
            + "one query or article (default 512 for " + BuiltinModels.EMBEDDING_E5 + ", 256 otherwise).")
    public Integer maxSeqLen;

    // A model of your own (pvc or url): how it makes vectors or scores. docs/models.md, "A larger model of your own".

    @Pattern(Bounds.POOLING_REGEX)
    @JsonPropertyDescription("Embedding only: how token vectors become one vector: mean (e5, sentence-transformers), cls (bge) "
            + "or last (decoder-based embedders). Default mean.")
    public String pooling;

    @JsonPropertyDescription("Embedding only: L2-normalise the vectors (default true).")
    public Boolean normalize;

    @Size(max = Bounds.PREFIX_MAX_LENGTH)
    @JsonPropertyDescription("Embedding only: text put before every search query, as the model was trained (e5: \"query: \").")
    public String queryPrefix;

    @Size(max = Bounds.PREFIX_MAX_LENGTH)
    @JsonPropertyDescription("Embedding only: text put before every article (e5: \"passage: \").")
    public String passagePrefix;

    @Size(max = Bounds.OUTPUT_NAME_MAX_LENGTH)
    @JsonPropertyDescription("Embedding only: the model output to read (default last_hidden_state or token_embeddings, pooled; "
            + "sentence_embedding is read as it is).")
    public String output;

    @Min(1)
    @Max(Bounds.DIMENSION_MAX)
    @JsonPropertyDescription("Embedding only: the vector length the model must give (e.g. 1024); a pod whose model gives "
            + "another refuses to start.")
    public Integer dimension;

    @Pattern(Bounds.SCORE_MAPPING_REGEX)
    @JsonPropertyDescription("Reranker only: how the cross-encoder's logits become a relevance in [0, 1]: auto (sigmoid of one "
            + "logit, softmax class 1 of two; the default), sigmoid, softmax or none (already a probability).")
    public String scoreMapping;

    @Min(0)
    @Max(Bounds.POSITIVE_CLASS_MAX)
    @JsonPropertyDescription("Reranker only: the output index read as relevant, with scoreMapping sigmoid, softmax or none.")
    public Integer positiveClass;
}
