package io.ragsearch.contract;

import java.util.Set;

/** Models that ship inside the server (and so its image): a spec may name them instead of a URL or path. */
public final class BuiltinModels {
    public static final String EMBEDDING_MINILM = "all-minilm-l6-v2";
    /** The rerank cost stand-in: real pair-encoding work of a MiniLM, never reorders. */
    public static final String RERANK_STAND_IN = "minilm-pair";

    public static final Set<String> EMBEDDINGS = Set.of(EMBEDDING_MINILM);
    public static final Set<String> RERANKERS = Set.of(RERANK_STAND_IN);

    private BuiltinModels() {
    }
}
