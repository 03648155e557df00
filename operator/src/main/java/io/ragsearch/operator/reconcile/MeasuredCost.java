package io.ragsearch.operator.reconcile;

import io.ragsearch.contract.budget.RerankBudget;
import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.operator.model.RerankStatus;

import java.util.Optional;

/** One pod's measurement of the rerank cost, with where and under which limit it was taken. */
public record MeasuredCost(long residentBytes, long perRunBytes, int intraOpThreads, String method, String measuredAt,
                           Long measuredUnderLimitBytes, String measuredBy, String rerankerDigest) {

    public static MeasuredCost of(String pod, Calibration r) {
        return new MeasuredCost(r.residentBytes(), r.perRunBytes(), Math.max(1, r.intraOpThreads()), r.method(),
                r.measuredAt(), r.memoryLimitBytes(), pod, r.rerankerDigest());
    }

    /** The measurement kept in a status, if it holds one. */
    public static Optional<MeasuredCost> from(RerankStatus s) {
        if (s == null || s.perRunBytes == null || s.residentBytes == null || s.perRunBytes <= 0) {
            return Optional.empty();
        }
        return Optional.of(new MeasuredCost(s.residentBytes, s.perRunBytes,
                s.intraOpThreads == null ? 1 : s.intraOpThreads, s.method, s.measuredAt, s.measuredUnderLimitBytes,
                s.measuredBy, s.rerankerDigest));
    }

    /** A rerank run allocates at least its input tensors and an arena: below this it was not measured. */
    static final long MIN_PLAUSIBLE_PER_RUN_BYTES = 1L << 20;
    /** A JVM with a Lucene index and an ONNX session is never resident in less. */
    static final long MIN_PLAUSIBLE_RESIDENT_BYTES = 64L << 20;
    static final int MAX_PLAUSIBLE_INTRA_OP_THREADS = 1024;

    /**
     * Why this measurement cannot be true, if it cannot: a pod's /calibration is input, and a
     * {@code perRunBytes: 1} would otherwise become a concurrency of a billion.
     */
    public Optional<String> implausible() {
        if (perRunBytes < MIN_PLAUSIBLE_PER_RUN_BYTES) {
            return Optional.of("perRunBytes " + perRunBytes + " is below 1 MiB");
        }
        if (residentBytes < MIN_PLAUSIBLE_RESIDENT_BYTES) {
            return Optional.of("residentBytes " + residentBytes + " is below 64 MiB");
        }
        // Resident counts the heap the JVM may still commit, so it may exceed the limit (that is
        // MemoryInsufficient, not a lie); memory in use cannot, nor can a heap beyond the limit: twice is impossible.
        if (measuredUnderLimitBytes != null && measuredUnderLimitBytes > 0 && residentBytes > 2 * measuredUnderLimitBytes) {
            return Optional.of("residentBytes " + residentBytes + " exceeds twice the memory limit it was measured under ("
                    + measuredUnderLimitBytes + ")");
        }
        if (intraOpThreads > MAX_PLAUSIBLE_INTRA_OP_THREADS) {
            return Optional.of("intraOpThreads " + intraOpThreads + " is above " + MAX_PLAUSIBLE_INTRA_OP_THREADS);
        }
        return Optional.empty();
    }

    public RerankBudget.Measurement measurement() {
        return new RerankBudget.Measurement(residentBytes, perRunBytes, intraOpThreads);
    }

    /** Of two measurements, the one that allows less: noise between pods never raises the concurrency. */
    public static MeasuredCost moreConservative(MeasuredCost a, MeasuredCost b, RerankBudget.Limits limits) {
        int sa = RerankBudget.safe(limits, a.measurement()).safe();
        int sb = RerankBudget.safe(limits, b.measurement()).safe();
        if (sa != sb) {
            return sa < sb ? a : b;
        }
        return a.residentBytes + a.perRunBytes >= b.residentBytes + b.perRunBytes ? a : b;
    }

    void writeTo(RerankStatus s) {
        s.residentBytes = residentBytes;
        s.perRunBytes = perRunBytes;
        s.intraOpThreads = intraOpThreads;
        s.method = method;
        s.measuredAt = measuredAt;
        s.measuredUnderLimitBytes = measuredUnderLimitBytes;
        s.measuredBy = measuredBy;
        s.rerankerDigest = rerankerDigest;
    }
}
