package io.ragsearch.rerank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.metrics.Metrics;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.embed.ModelRegistry;
import io.ragsearch.embed.SessionSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The memory bound with real rerank work (the stand-in on worst-case batches). */
class RerankLimiterTest {

    private static ModelRegistry registry;
    private static Reranker standIn;

    @BeforeAll
    static void load() throws Exception {
        registry = new ModelRegistry();
        standIn = new RerankerFactory(registry, new SessionSettings(1, SessionSettings.Arena.SHRINK))
                .create(RerankerModel.builtin(RerankerFactory.STAND_IN, 128));
    }

    @AfterAll
    static void close() {
        registry.close();
    }

    @Test
    void neverMoreRunsAtOnceThanPermits() throws Exception {
        Metrics metrics = new Metrics();
        RerankLimiter limiter = new RerankLimiter(2, 60_000, metrics);
        PairBatch batch = PairBatch.worstCase(8, 128);
        AtomicInteger maxSeen = new AtomicInteger();
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                maxSeen.accumulateAndGet(limiter.inFlight(), Math::max);
                Thread.onSpinWait();
            }
        });
        sampler.start();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        List<Future<float[]>> runs = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            runs.add(pool.submit(() -> limiter.run(standIn, batch)));
        }
        for (Future<float[]> f : runs) {
            assertEquals(8, f.get().length);
        }
        sampling.set(false);
        sampler.join();
        pool.shutdown();
        assertEquals(2, maxSeen.get(), "six callers, two permits: exactly two at once");
        String text = metrics.render();
        assertTrue(text.contains("ragsearch_rerank_candidates_total 48"), text);
        assertTrue(text.contains("ragsearch_rerank_duration_seconds_count 6"), text);
        assertTrue(text.contains("ragsearch_rerank_concurrency 2"), text);
    }

    @Test
    void aCallerThatWaitsPastTheQueueBudgetGetsBusy() throws Exception {
        Metrics metrics = new Metrics();
        RerankLimiter limiter = new RerankLimiter(1, 50, metrics);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        Future<float[]> holder = pool.submit(() -> limiter.run(standIn, PairBatch.worstCase(32, 128)));
        while (limiter.inFlight() == 0) {
            Thread.sleep(1);
        }
        RerankBusyException busy = assertThrows(RerankBusyException.class, () -> limiter.run(standIn, PairBatch.worstCase(1, 8)));
        assertTrue(busy.getMessage().startsWith("busy, retry"), busy.getMessage());
        holder.get();
        pool.shutdown();
        assertTrue(metrics.render().contains("ragsearch_rerank_busy_rejections_total 1"));
        assertThrows(IllegalArgumentException.class, () -> new RerankLimiter(0, 10, new Metrics()));
    }
}
