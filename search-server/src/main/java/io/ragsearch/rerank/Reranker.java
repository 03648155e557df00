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

    /** Longest pair in tokens; longer pairs are cut (passage side). */
    int maxSeqLen();

    int intraOpThreads();

    /** ONNX Runtime arena mode the session runs with (recorded with every calibration). */
    String arenaMode();

    /** Relevance per passage in [0, 1] (probability for a trained cross-encoder). */
    default float[] score(String query, List<String> passages) {
        return run(encode(query, passages));
    }

    PairBatch encode(String query, List<String> passages);

    float[] run(PairBatch batch);
}
