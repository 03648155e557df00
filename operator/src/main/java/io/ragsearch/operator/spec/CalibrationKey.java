package io.ragsearch.operator.spec;

import io.ragsearch.operator.naming.ConfigHash;

/**
 * What a calibration depends on: pods with the current key measured under the current limits.
 * Computed once for each {@link CheckedSpec} (by {@link SpecCheck}, and for the same spec under
 * other limits by {@link CheckedSpec#withLimits}) and carried in it, so the label on the pods and
 * the key the planner compares with are the same value.
 */
final class CalibrationKey {

    private CalibrationKey() {
    }

    /** The same key means the same measurement conditions: image, memory and heap, CPU, reranker, intra-op threads. */
    static String of(String image, CheckedSpec.Limits limits, CheckedSpec.RerankSettings rerank, CheckedSpec.Reranker reranker) {
        return ConfigHash.of(String.join("\n", image, Long.toString(limits.memory().bytes()), Long.toString(limits.memory().heapBytes()),
                String.valueOf(limits.cpu().millis()),
                String.valueOf(reranker == null ? null : reranker.source()), Integer.toString(rerank.intraOpThreads())));
    }
}
