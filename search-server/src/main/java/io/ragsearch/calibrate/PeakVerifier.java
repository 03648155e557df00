package io.ragsearch.calibrate;

import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.rerank.PairBatch;
import io.ragsearch.rerank.RerankLimiter;
import io.ragsearch.rerank.Reranker;
import io.ragsearch.metrics.Metrics;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The check that matters: with N rerank permits, 4×N callers fire worst-case reranks at once;
 * the peak must stay within resident + N × perRun (the calibration's prediction). Also yields
 * throughput and run latency at that concurrency.
 */
public final class PeakVerifier {

    /** Callers per permit: enough that every permit is always taken and a queue forms. */
    static final int CALLERS_PER_PERMIT = 4;
    /** Nobody may give up waiting during the check: the queue is part of what is measured. */
    private static final long PATIENT_MILLIS = 3_600_000;

    private final MemoryAccounting memory;

    public PeakVerifier(MemoryProbe probe) {
        this.memory = new MemoryAccounting(probe, HeapResidency.locate());
    }

    /**
     * {@code heapResidentBytes} and {@code outsideHeapPeakBytes} (null where the heap cannot be
     * counted) split the measured peak: the heap at the end of the check and the peak outside it.
     */
    public record Result(int concurrency, int runs, long predictedPeakBytes, long measuredPeakBytes, double ratio,
                         double candidatesPerSecond, double medianRunSeconds, double wallSeconds,
                         Long heapResidentBytes, Long outsideHeapPeakBytes) {
    }

    public Result verify(Reranker reranker, Calibration calibration, int permits) throws Exception {
        RerankLimiter limiter = new RerankLimiter(permits, PATIENT_MILLIS, new Metrics());
        PairBatch worst = PairBatch.worstCase(calibration.batch(), calibration.maxSeqLen());
        int callers = CALLERS_PER_PERMIT * permits;
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        List<Double> runSeconds = Collections.synchronizedList(new ArrayList<>());
        reranker.run(PairBatch.worstCase(1, 8)); // start at rest, as calibration measured it
        long t0 = System.nanoTime();
        long peak;
        Long outsideHeapPeak;
        try (PeakTracker tracker = memory.track()) {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                futures.add(pool.submit(() -> {
                    long r0 = System.nanoTime();
                    limiter.run(reranker, worst);
                    runSeconds.add((System.nanoTime() - r0) / 1e9);
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
            peak = tracker.peak();
            outsideHeapPeak = memory.heapCounted() ? tracker.peakOutsideHeap() : null;
        } finally {
            pool.shutdownNow();
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        long predicted = calibration.predictedPeak(permits);
        List<Double> sorted = new ArrayList<>(runSeconds);
        Collections.sort(sorted);
        // A caller's time includes its wait for a permit; the run itself is the fastest share of it.
        double median = sorted.get(sorted.size() / 2);
        return new Result(permits, callers, predicted, peak, (double) peak / predicted,
                callers * (double) calibration.batch() / wall, median, wall,
                memory.heapCounted() ? memory.heapResident() : null, outsideHeapPeak);
    }
}
