package io.ragsearch.mcp;

import io.ragsearch.embed.RunGate;
import io.ragsearch.metrics.Metrics;
import io.ragsearch.rerank.RerankBusyException;
import io.ragsearch.search.InvalidRequestException;
import io.ragsearch.search.NotFoundException;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * Runs tool bodies on our own bounded pool: never on Jetty's request threads, never on the
 * SDK's JVM-wide default scheduler. The queue is bounded: when it is full the call ends at once
 * as a retryable "busy" tool error instead of waiting in an unbounded line.
 *
 * <p>Searches of projects that rerank run in a lane of their own ({@link RerankLaneSettings}):
 * they wait for a rerank permit there, never on a thread or a queue place the other tools need,
 * and a search that cannot start within the lane's budget is answered "busy, retry" when the
 * budget ends (a full lane queue answers at once).
 */
public final class ToolExecutor implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ToolExecutor.class);

    private final ThreadPoolExecutor pool;
    private final AtomicInteger running = new AtomicInteger();
    private final Metrics metrics;
    private final Metrics.Counter busy;
    private final Metrics.Histogram queueWait;
    private final ThreadPoolExecutor lane;
    private final long laneBudgetMillis;
    private final ScheduledExecutorService laneTimer;
    private final Metrics.Counter laneBusy;
    /** Set when the server begins to stop: calls not yet started are answered "shutting down, retry". */
    private final AtomicBoolean stopping = new AtomicBoolean();

    public ToolExecutor(ToolPoolSettings settings, Metrics metrics) {
        this(settings, null, metrics);
    }

    /** @param rerankLane the lane for searches that rerank, or null to run them with the other tools */
    public ToolExecutor(ToolPoolSettings settings, RerankLaneSettings rerankLane, Metrics metrics) {
        int threads = settings.threads();
        int queueCapacity = settings.queue();
        AtomicInteger n = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(queueCapacity), r -> {
                    Thread t = new Thread(r, "tool-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                }, new ThreadPoolExecutor.AbortPolicy());
        this.metrics = metrics;
        this.busy = metrics.counter("ragsearch_tool_busy_rejections_total", "Tool calls refused because the tool queue was full", "");
        this.queueWait = metrics.histogram("ragsearch_tool_queue_wait_seconds", "Time a tool call waited for a tool thread", Metrics.LATENCY_BUCKETS);
        metrics.gauge("ragsearch_tool_in_flight", "Tool calls running on tool threads", running::get);
        metrics.gauge("ragsearch_tool_queued", "Tool calls waiting for a tool thread", () -> pool.getQueue().size());
        metrics.gauge("ragsearch_tool_threads", "Size of the tool thread pool", () -> threads);
        if (rerankLane == null) {
            this.lane = null;
            this.laneTimer = null;
            this.laneBudgetMillis = 0;
            this.laneBusy = null;
            return;
        }
        AtomicInteger m = new AtomicInteger();
        this.lane = new ThreadPoolExecutor(rerankLane.threads(), rerankLane.threads(), 0, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(rerankLane.queue()), r -> {
                    Thread t = new Thread(r, "rerank-tool-" + m.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                }, new ThreadPoolExecutor.AbortPolicy());
        this.laneTimer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "rerank-lane-budget");
            t.setDaemon(true);
            return t;
        });
        this.laneBudgetMillis = rerankLane.budgetMillis();
        this.laneBusy = metrics.counter("ragsearch_rerank_lane_busy_total",
                "Reranking searches answered busy: the rerank lane's queue was full, or no lane thread took them within the budget", "");
        metrics.gauge("ragsearch_rerank_lane_queued", "Reranking searches waiting for a rerank lane thread", () -> lane.getQueue().size());
    }

    /**
     * Gives the rerank lane as many threads as there are rerank permits now (a live re-tune): with
     * fewer threads than permits the lane, not memory, would bound the reranks. The queue keeps the
     * size it was made with (its places are allocated at start); a smaller lane lets its extra
     * threads end after their current search.
     */
    public void resizeRerankLane(int permits) {
        if (lane == null || permits < 1) {
            return;
        }
        // The core size may never exceed the maximum: grow the maximum first, shrink it last.
        if (permits > lane.getMaximumPoolSize()) {
            lane.setMaximumPoolSize(permits);
            lane.setCorePoolSize(permits);
        } else {
            lane.setCorePoolSize(permits);
            lane.setMaximumPoolSize(permits);
        }
    }

    /**
     * Runs a tool body; {@code reranks} sends it to the rerank lane (when there is one).
     */
    public Mono<ToolOutcome> submit(String tool, boolean reranks, Supplier<ToolOutcome> body) {
        if (!reranks || lane == null) {
            return submit(tool, body);
        }
        return Mono.defer(() -> {
            if (stopping.get()) {
                return Mono.just(shuttingDown(tool));
            }
            long queuedAt = System.nanoTime();
            CompletableFuture<ToolOutcome> result = new CompletableFuture<>();
            AtomicBoolean claimed = new AtomicBoolean();
            try {
                lane.execute(() -> {
                    if (claimed.compareAndSet(false, true)) {
                        result.complete(run(tool, body, queuedAt));
                    }
                });
            } catch (RejectedExecutionException e) {
                laneBusy.inc();
                count(tool, "busy");
                return Mono.just(ToolResults.error("busy, retry: every rerank slot is taken and the rerank queue is full; "
                        + "retry in a moment"));
            }
            laneTimer.schedule(() -> {
                if (claimed.compareAndSet(false, true)) {
                    laneBusy.inc();
                    count(tool, "busy");
                    result.complete(ToolResults.error("busy, retry: no rerank slot freed within " + laneBudgetMillis
                            + " ms; retry in a moment"));
                }
            }, laneBudgetMillis, TimeUnit.MILLISECONDS);
            return Mono.fromFuture(result);
        });
    }

    /** What a call that did not run gets while the server stops: retryable, another replica (or this one restarted) answers. */
    static final String SHUTTING_DOWN = "busy, retry: the server is shutting down; retry in a moment (another replica, or this one "
            + "once restarted, answers)";

    /**
     * The server begins to stop (SIGTERM): from now on a call that has not started is answered
     * {@link #SHUTTING_DOWN} at once, instead of running against a server whose parts close
     * under it (which ended in "internal error"), and the listener's graceful stop waits only
     * for the calls already running.
     */
    public void beginShutdown() {
        stopping.set(true);
    }

    public int running() {
        return running.get();
    }

    public Mono<ToolOutcome> submit(String tool, Supplier<ToolOutcome> body) {
        return Mono.defer(() -> {
            if (stopping.get()) {
                return Mono.just(shuttingDown(tool));
            }
            long queuedAt = System.nanoTime();
            CompletableFuture<ToolOutcome> future;
            try {
                future = CompletableFuture.supplyAsync(() -> run(tool, body, queuedAt), pool);
            } catch (RejectedExecutionException e) {
                busy.inc();
                count(tool, "busy");
                return Mono.just(ToolResults.error("busy, retry: every tool thread is working and the queue is full; "
                        + "retry in a moment"));
            }
            return Mono.fromFuture(future);
        });
    }

    private ToolOutcome shuttingDown(String tool) {
        count(tool, "busy");
        return ToolResults.error(SHUTTING_DOWN);
    }

    private ToolOutcome run(String tool, Supplier<ToolOutcome> body, long queuedAt) {
        if (stopping.get()) {
            return shuttingDown(tool);
        }
        long start = System.nanoTime();
        queueWait.observe((start - queuedAt) / 1e9);
        running.incrementAndGet();
        try {
            ToolOutcome result = body.get();
            count(tool, result.isError() ? "error" : "ok");
            return result;
        } catch (NotFoundException | InvalidRequestException | RerankBusyException e) {
            count(tool, "error");
            return ToolResults.error(e.getMessage());
        } catch (RuntimeException e) {
            if (stopping.get() || modelRunsShut(e)) {
                // A part closed under a running call (an index, a model session): the stop, not a bug.
                LOG.debug("tool {} ended by the stop: {}", tool, e.toString());
                return shuttingDown(tool);
            }
            // Internals stay in the log; the caller gets a reference to quote.
            String ref = UUID.randomUUID().toString().substring(0, 8);
            LOG.error("tool {} failed (ref {})", tool, ref, e);
            count(tool, "failure");
            return ToolResults.error("internal error in " + tool + " (ref " + ref + "); the server log has the details");
        } finally {
            running.decrementAndGet();
            metrics.histogram("ragsearch_tool_duration_seconds", "Tool call run time on a tool thread", Metrics.LATENCY_BUCKETS)
                    .observe((System.nanoTime() - start) / 1e9);
        }
    }

    /**
     * A model run refused because its gate is shut: on SIGTERM the process gate shuts at once
     * (embed.NativeRuns), before the shutdown hook reaches {@link #beginShutdown()}, and every
     * queued search that then needs an embedding or a rerank ends here. The stop, not a bug.
     */
    private static boolean modelRunsShut(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof RunGate.Shut) {
                return true;
            }
        }
        return false;
    }

    /**
     * Counts one call in {@code ragsearch_tool_calls_total}: outcomes {@code ok}, {@code error}
     * (a tool error such as an unknown project), {@code busy}, {@code failure} (our bug),
     * {@code invalid} (arguments refused by the input schema, the body never ran) and
     * {@code unknown_tool} (counted under tool="unknown": names are the caller's, not ours).
     */
    void count(String tool, String outcome) {
        metrics.counter("ragsearch_tool_calls_total", "Tool calls by tool and outcome",
                "tool=\"" + tool + "\",outcome=\"" + outcome + "\"").inc();
    }

    /**
     * Stops the pools. Calls still queued are run now, on this thread: with the stop begun each
     * ends at once with {@link #SHUTTING_DOWN}, so no caller waits on a call that was dropped.
     */
    @Override
    public void close() {
        beginShutdown();
        pool.shutdownNow().forEach(Runnable::run);
        if (lane != null) {
            lane.shutdownNow().forEach(Runnable::run);
            laneTimer.shutdownNow();
        }
    }
}
