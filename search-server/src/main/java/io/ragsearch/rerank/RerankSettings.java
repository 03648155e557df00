package io.ragsearch.rerank;

import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.embed.SessionSettings;

/**
 * Rerank resources shared by all projects of the process: {@code concurrency} permits of the
 * memory bound, how long a search waits for one before "busy, retry", and the ONNX Runtime
 * session settings of every reranker; {@code retune} (null: none) lets the permits follow an
 * in-place memory resize (the operator writes it).
 */
public record RerankSettings(int concurrency, int queueTimeoutMillis, SessionSettings session, ServerSettings.Retune retune) {

    /** 1 until the operator has a measurement (it sets RAGSEARCH_RERANK_CONCURRENCY). */
    public static final int DEFAULT_CONCURRENCY = 1;
    /**
     * A search waits this long for a rerank slot before "busy, retry": short, so a client under load
     * hears at once that it should retry, and a queued search never holds its HTTP request for long.
     */
    public static final int DEFAULT_QUEUE_TIMEOUT_MILLIS = 1_000;
    /** One thread per run: concurrency, bounded by memory and cores, is the lever (see docs/memory.md). */
    public static final int DEFAULT_INTRA_OP_THREADS = 1;

    public RerankSettings {
        if (concurrency < 1 || queueTimeoutMillis < 1) {
            throw new IllegalArgumentException("rerank concurrency and queue timeout must be at least 1");
        }
    }
}
