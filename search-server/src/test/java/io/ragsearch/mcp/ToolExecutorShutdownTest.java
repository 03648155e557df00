package io.ragsearch.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.embed.RunGate;
import io.ragsearch.metrics.Metrics;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Issue 32: on SIGTERM, searches waiting in the tool queue were answered "internal error" (or not
 * at all) instead of a retryable answer. The stop begins before the listener's graceful stop: a
 * call not yet started is answered "shutting down, retry"; a call running finishes, and one whose
 * parts close under it is answered the same, never "internal error".
 */
class ToolExecutorShutdownTest {

    /** A tool body that holds its thread until released, and fails as a closed index does when interrupted. */
    private static Supplier<ToolOutcome> holding(CountDownLatch started, CountDownLatch release) {
        return () -> {
            started.countDown();
            try {
                if (!release.await(30, TimeUnit.SECONDS)) {
                    throw new AssertionError("the test never released the running call");
                }
            } catch (InterruptedException e) {
                throw new IllegalStateException("this IndexReader is closed", e);
            }
            return ToolResults.success("done", null);
        };
    }

    private static List<CompletableFuture<ToolOutcome>> queue(ToolExecutor executor, int n) {
        List<CompletableFuture<ToolOutcome>> queued = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            queued.add(executor.submit("search", () -> ToolResults.success("ran", null)).toFuture());
        }
        return queued;
    }

    private static ToolOutcome answer(CompletableFuture<ToolOutcome> call) throws Exception {
        try {
            return call.get(10, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("a call was not answered within 10 s of the stop", e);
        }
    }

    @Test
    void queuedCallsAreToldToRetryAndTheRunningOneFinishes() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (ToolExecutor executor = new ToolExecutor(new ToolPoolSettings(1, 8), new Metrics())) {
            CompletableFuture<ToolOutcome> running = executor.submit("search", holding(started, release)).toFuture();
            assertTrue(started.await(10, TimeUnit.SECONDS), "the first call did not start within 10 s");
            List<CompletableFuture<ToolOutcome>> queued = queue(executor, 4);
            executor.beginShutdown();
            release.countDown();
            assertEquals("done", answer(running).text());
            for (CompletableFuture<ToolOutcome> call : queued) {
                ToolOutcome o = answer(call);
                assertTrue(o.isError() && o.text().equals(ToolExecutor.SHUTTING_DOWN), o.text());
            }
            ToolOutcome late = answer(executor.submit("search", () -> ToolResults.success("ran", null)).toFuture());
            assertEquals(ToolExecutor.SHUTTING_DOWN, late.text(), "a call arriving during the stop");
        }
    }

    @Test
    void closingWithCallsRunningAndQueuedAnswersEveryOneRetryableNeverInternalError() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        ToolExecutor executor = new ToolExecutor(new ToolPoolSettings(1, 8), new Metrics());
        CompletableFuture<ToolOutcome> running = executor.submit("search", holding(started, new CountDownLatch(1))).toFuture();
        assertTrue(started.await(10, TimeUnit.SECONDS), "the first call did not start within 10 s");
        List<CompletableFuture<ToolOutcome>> all = new ArrayList<>(queue(executor, 4));
        all.add(running);
        executor.close();
        for (CompletableFuture<ToolOutcome> call : all) {
            ToolOutcome o = answer(call);
            assertFalse(o.text().contains("internal error"), o.text());
            assertTrue(o.isError() && o.text().startsWith("busy, retry: the server is shutting down"), o.text());
        }
    }

    /**
     * The path the review hit: SIGTERM shuts the process's model-run gate at once (embed.NativeRuns),
     * before the shutdown hook begins the executor's stop, and each queued search that then needs
     * an embedding was answered "internal error".
     */
    @Test
    void aModelRunRefusedBecauseTheProcessStopsIsToldToRetry() throws Exception {
        RunGate process = new RunGate("the process is stopping");
        assertTrue(process.shut(java.time.Duration.ofSeconds(1)));
        try (ToolExecutor executor = new ToolExecutor(new ToolPoolSettings(1, 8), new Metrics())) {
            List<CompletableFuture<ToolOutcome>> searches = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                searches.add(executor.submit("search", () -> {
                    try {
                        return process.run(() -> ToolResults.success("embedded", null));
                    } catch (ai.onnxruntime.OrtException e) {
                        throw new AssertionError(e);
                    }
                }).toFuture());
            }
            for (CompletableFuture<ToolOutcome> call : searches) {
                assertEquals(ToolExecutor.SHUTTING_DOWN, answer(call).text());
            }
        }
    }
}
