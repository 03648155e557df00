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
}
