package io.ragsearch.rerank;

import io.opentelemetry.api.trace.Tracer;
import io.ragsearch.metrics.Metrics;
import io.ragsearch.telemetry.Conventions;
import io.ragsearch.telemetry.Step;
import io.ragsearch.telemetry.Telemetry;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bounds how many reranks run at once in this process.
 *
 * <p>This is a memory bound, not a correctness lock: the shared ONNX session is safe to run from
 * many threads, but every concurrent run allocates its own working memory (measured per run by
 * calibration; figures in docs/memory.md), so the permits are what keeps the process inside its memory
 * limit. The operator sets their number (RAGSEARCH_RERANK_CONCURRENCY) from the calibration;
 * {@link #retune} moves it while the server runs (an in-place memory resize, see
 * {@link RerankPermits} for what happens to the runs in progress).
 * A caller waits at most the queue budget for a permit, then gets a retryable "busy". The wait
 * and the run are spans of their own ("search.rerank_wait", "search.rerank"): a slow search shows
 * whether it queued or computed.
 */
public final class RerankLimiter {

    private final RerankPermits permits;
    private final long queueBudgetMillis;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Metrics.Histogram wait;
    private final Metrics.Histogram duration;
    private final Metrics.Counter busy;
    private final Metrics.Counter candidates;
    private final Tracer tracer;

    public RerankLimiter(int permits, long queueBudgetMillis, Metrics metrics) {
        this(permits, queueBudgetMillis, metrics, Telemetry.OFF_TRACER);
    }

    public RerankLimiter(int permits, long queueBudgetMillis, Metrics metrics, Tracer tracer) {
        this.tracer = tracer;
        this.permits = new RerankPermits(permits); // fair: first come, first reranked
        this.queueBudgetMillis = queueBudgetMillis;
        this.wait = metrics.histogram("ragsearch_rerank_queue_wait_seconds", "Time a rerank waited for a permit", Metrics.LATENCY_BUCKETS);
        this.duration = metrics.histogram("ragsearch_rerank_duration_seconds", "Run time of one rerank (all candidates)", Metrics.LATENCY_BUCKETS);
        this.busy = metrics.counter("ragsearch_rerank_busy_rejections_total", "Reranks refused after waiting the queue budget", "");
        this.candidates = metrics.counter("ragsearch_rerank_candidates_total", "Candidates scored by the reranker", "");
        metrics.gauge("ragsearch_rerank_in_flight", "Reranks running now", inFlight::get);
        metrics.gauge("ragsearch_rerank_concurrency", "Rerank permits in force (RAGSEARCH_RERANK_CONCURRENCY, moved by a live re-tune)",
                this.permits::limit);
    }

    public int permits() {
        return permits.limit();
    }

    /**
     * Moves the permits to {@code concurrency}: new reranks wait for the new bound from the moment
     * this returns; reranks running finish. Returns whether the running ones already fit it.
     */
    public boolean retune(int concurrency) {
        return permits.setLimit(concurrency);
    }

    /** Whether no more reranks run than the permits in force allow (false after a decrease until enough ended). */
    public boolean inForce() {
        return permits.inForce();
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
        try (Step step = Step.start(tracer, "search.rerank_wait")) {
            acquired = permits.tryAcquire(queueBudgetMillis);
            step.set(Conventions.RERANK_ACQUIRED, acquired);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RerankBusyException("busy, retry: interrupted while waiting for a rerank slot");
        }
        wait.observe((System.nanoTime() - t0) / 1e9);
        if (!acquired) {
            busy.inc();
            throw new RerankBusyException("busy, retry: all " + permits.limit() + " rerank slot(s) stayed taken for "
                    + queueBudgetMillis + " ms; retry in a moment");
        }
        inFlight.incrementAndGet();
        long r0 = System.nanoTime();
        try (Step step = Step.start(tracer, "search.rerank")) {
            step.set(Conventions.RERANKER, reranker.name()).set(Conventions.RERANK_PAIRS, batch.rows());
            float[] scores = reranker.run(batch);
            candidates.inc(batch.rows());
            return scores;
        } finally {
            duration.observe((System.nanoTime() - r0) / 1e9);
            inFlight.decrementAndGet();
            permits.release();
        }
    }
}
