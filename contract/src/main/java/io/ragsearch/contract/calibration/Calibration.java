package io.ragsearch.contract.calibration;

import java.util.List;
import java.util.Map;

/**
 * What a server measured about its own rerank memory, published at {@code /calibration} (sizes
 * in bytes). {@code method} … {@code measuredAt} are the contract the operator computes its
 * budget from; {@code reranker}, {@code trained}, {@code levels}, {@code memorySettings},
 * {@code methodReason} and {@code rerankers} (one entry per configured model, the costliest one
 * on top) are for people reading it and may be absent.
 */
public record Calibration(String method, Long memoryLimitBytes, long residentBytes, long perRunBytes, int samples,
                          int batch, int maxSeqLen, int intraOpThreads, String rerankerDigest, String measuredAt,
                          String reranker, Boolean trained, List<Level> levels, Map<String, Object> memorySettings,
                          String methodReason, List<Calibration> rerankers) {

    /** The budget's part alone, the fields for people absent: what a stand-in or a test publishes. */
    public static Calibration measured(String method, Long memoryLimitBytes, long residentBytes, long perRunBytes, int samples,
                                       int batch, int maxSeqLen, int intraOpThreads, String rerankerDigest, String measuredAt) {
        return new Calibration(method, memoryLimitBytes, residentBytes, perRunBytes, samples, batch, maxSeqLen, intraOpThreads,
                rerankerDigest, measuredAt, null, null, null, null, null, null);
    }

    public Calibration withReranker(String value) {
        return new Calibration(method, memoryLimitBytes, residentBytes, perRunBytes, samples, batch, maxSeqLen, intraOpThreads,
                rerankerDigest, measuredAt, value, trained, levels, memorySettings, methodReason, rerankers);
    }

    /** The same headline with every configured model's own calibration listed. */
    public Calibration withRerankers(List<Calibration> value) {
        return new Calibration(method, memoryLimitBytes, residentBytes, perRunBytes, samples, batch, maxSeqLen, intraOpThreads,
                rerankerDigest, measuredAt, reranker, trained, levels, memorySettings, methodReason, value);
    }

    /** One burst: {@code concurrency} worst-case runs at once, the peak they reached, the cost per run. */
    public record Level(int concurrency, long peakBytes, long perRunBytes, double seconds) {
    }

    /** The peak the calibration predicts for {@code concurrency} runs at once. */
    public long predictedPeak(int concurrency) {
        return residentBytes + concurrency * perRunBytes;
    }

    /** A server without a reranker reports no run cost: its concurrency setting is unused. */
    public boolean hasReranker() {
        return perRunBytes > 0 && rerankerDigest != null;
    }
}
