package io.ragsearch.operator.calibration;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * A pod's {@code GET /calibration} answer: the contract's fields (sizes in bytes). Other fields
 * the server adds for people are ignored here.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record CalibrationReport(String method, Long memoryLimitBytes, long residentBytes, long perRunBytes,
                                int samples, int batch, int maxSeqLen, int intraOpThreads, String rerankerDigest,
                                String measuredAt) {

    /** A server without a reranker reports no run cost: its concurrency setting is unused. */
    public boolean hasReranker() {
        return perRunBytes > 0 && rerankerDigest != null;
    }
}
