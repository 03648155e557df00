package io.ragsearch.rerank;

import java.util.List;

/**
 * Scores (query, passage) pairs with one forward pass per pair. {@code trained} is false for
 * the cost stand-in: it does the work of a cross-encoder, but its scores must not reorder
 * results or gate them.
 */
public interface Reranker {

    String name();

    String digest();

    boolean trained();

    /**
     * For a cost stand-in ({@code trained} false), the cross-encoder whose work it does, in words
     * for /info, with its article ("a MiniLM-L6"); a trained model is itself.
     */
    default String costOf() {
        return name();
    }

    /** How the model's logits become a relevance ({@link ScoreMapping#describe()}), for /info. */
    default String scoreMapping() {
        return ScoreMapping.AUTO.describe();
    }

    /** Longest pair in tokens; longer pairs are cut (passage side). */
    int maxSeqLen();

    int intraOpThreads();

    /** ONNX Runtime arena mode the session runs with (recorded with every calibration). */
    String arenaMode();

    PairBatch encode(String query, List<String> passages);

    /** Relevance per passage in [0, 1] (probability for a trained cross-encoder); callers go through {@link RerankLimiter}. */
    float[] run(PairBatch batch);
}
