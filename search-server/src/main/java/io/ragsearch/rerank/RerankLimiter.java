package io.ragsearch.rerank;

import io.ragsearch.metrics.Metrics;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bounds how many reranks run at once in this process.
 *
 * <p>This is a memory bound, not a correctness lock: the shared ONNX session is safe to run from
 * many threads, but every concurrent run allocates its own working memory (measured per run by
 * calibration; figures in docs/memory.md), so the permits are what keeps the process inside its memory
 * limit. The operator sets their number (RAGSEARCH_RERANK_CONCURRENCY) from the calibration.
 * A caller waits at most the queue budget for a permit, then gets a retryable "busy".
 */
public final class RerankLimiter {

    private final int permits;
    private final Semaphore semaphore;
    private final long queueBudgetMillis;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Metrics.Histogram wait;
    private final Metrics.Histogram duration;
    private final Metrics.Counter busy;
    private final Metrics.Counter candidates;

    public RerankLimiter(int permits, long queueBudgetMillis, Metrics metrics) {
        if (permits < 1) {
            throw new IllegalArgumentException("rerank concurrency must be at least 1, got " + permits);
        }
        this.permits = permits;
        this.semaphore = new Semaphore(permits, true); // fair: first come, first reranked
        this.queueBudgetMillis = queueBudgetMillis;
        this.wait = metrics.histogram("ragsearch_rerank_queue_wait_seconds", "Time a rerank waited for a permit", Metrics.LATENCY_BUCKETS);
        this.duration = metrics.histogram("ragsearch_rerank_duration_seconds", "Run time of one rerank (all candidates)", Metrics.LATENCY_BUCKETS);
        this.busy = metrics.counter("ragsearch_rerank_busy_rejections_total", "Reranks refused after waiting the queue budget", "");
        this.candidates = metrics.counter("ragsearch_rerank_candidates_total", "Candidates scored by the reranker", "");
        metrics.gauge("ragsearch_rerank_in_flight", "Reranks running now", inFlight::get);
        metrics.gauge("ragsearch_rerank_concurrency", "Rerank permits (RAGSEARCH_RERANK_CONCURRENCY)", () -> permits);
    }

    public int permits() {
        return permits;
    }

    public int inFlight() {
        return inFlight.get();
    }

    public float[] score(Reranker reranker, String query, List<String> passages) {
        return run(reranker, reranker.encode(query, passages));
    }

    /** Runs a batch under a permit; throws {@link RerankBusyException} when none frees up in time. */
    public float[] run(Reranker reranker, PairBatch batch) {
        long t0 = System.nanoTime();
        boolean acquired;
        try {
            acquired = semaphore.tryAcquire(queueBudgetMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RerankBusyException("busy, retry: interrupted while waiting for a rerank slot");
        }
        wait.observe((System.nanoTime() - t0) / 1e9);
        if (!acquired) {
            busy.inc();
            throw new RerankBusyException("busy, retry: all " + permits + " rerank slot(s) stayed taken for "
                    + queueBudgetMillis + " ms; retry in a moment");
        }
        inFlight.incrementAndGet();
        long r0 = System.nanoTime();
        try {
            float[] scores = reranker.run(batch);
            candidates.inc(batch.rows());
            return scores;
        } finally {
            duration.observe((System.nanoTime() - r0) / 1e9);
            inFlight.decrementAndGet();
            semaphore.release();
        }
    }
}
