package io.ragsearch.mcp;

import io.ragsearch.metrics.Metrics;
import io.ragsearch.rerank.RerankBusyException;
import io.ragsearch.search.InvalidRequestException;
import io.ragsearch.search.NotFoundException;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * Runs tool bodies on our own bounded pool: never on Jetty's request threads, never on the
 * SDK's JVM-wide default scheduler. The queue is bounded: when it is full the call ends at once
 * as a retryable "busy" tool error instead of waiting in an unbounded line.
 */
public final class ToolExecutor implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ToolExecutor.class);

    private final ThreadPoolExecutor pool;
    private final AtomicInteger running = new AtomicInteger();
    private final Metrics metrics;
    private final Metrics.Counter busy;
    private final Metrics.Histogram queueWait;

    public ToolExecutor(ToolPoolSettings settings, Metrics metrics) {
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
    }

    public int running() {
        return running.get();
    }

    public Mono<ToolOutcome> submit(String tool, Supplier<ToolOutcome> body) {
        return Mono.defer(() -> {
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

    private ToolOutcome run(String tool, Supplier<ToolOutcome> body, long queuedAt) {
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
     * Counts one call in {@code ragsearch_tool_calls_total}: outcomes {@code ok}, {@code error}
     * (a tool error such as an unknown project), {@code busy}, {@code failure} (our bug),
     * {@code invalid} (arguments refused by the input schema, the body never ran) and
     * {@code unknown_tool} (counted under tool="unknown": names are the caller's, not ours).
     */
    void count(String tool, String outcome) {
        metrics.counter("ragsearch_tool_calls_total", "Tool calls by tool and outcome",
                "tool=\"" + tool + "\",outcome=\"" + outcome + "\"").inc();
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
