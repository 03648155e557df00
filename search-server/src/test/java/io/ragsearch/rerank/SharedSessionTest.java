package io.ragsearch.rerank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.embed.ModelFiles;
import io.ragsearch.embed.ModelRegistry;
import io.ragsearch.embed.SessionSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** One session per model, shared by all threads: loaded once, and parallel runs equal serial ones. */
class SharedSessionTest {

    private static final SessionSettings SETTINGS = new SessionSettings(1, SessionSettings.Arena.SHRINK);

    @Test
    void parallelScoresOnOneSessionEqualSerialScores() throws Exception {
        try (ModelRegistry registry = new ModelRegistry()) {
            Reranker standIn = new RerankerFactory(registry, SETTINGS)
                    .create(RerankerModel.builtin(RerankerFactory.STAND_IN, 64));
            assertFalse(standIn.trained(), "the stand-in never claims to be a trained cross-encoder");
            List<List<String>> inputs = List.of(
                    List.of("Employees receive fifteen days of paid annual leave.", "The cafeteria opens at noon."),
                    List.of("Hotel costs are reimbursed up to 120,000 won a night.", "Passwords must be 12 characters long."),
                    List.of("Report a lost laptop to the security team.", "Overtime is paid at 150 percent."),
                    List.of("Remote work up to two days a week.", "Gifts above 50,000 won must be reported."));
            List<float[]> serial = new ArrayList<>();
            for (List<String> passages : inputs) {
                serial.add(standIn.run(standIn.encode("annual leave days", passages)));
            }
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                for (int round = 0; round < 3; round++) {
                    CountDownLatch start = new CountDownLatch(1);
                    List<Future<float[]>> parallel = new ArrayList<>();
                    for (List<String> passages : inputs) {
                        parallel.add(pool.submit(() -> {
                            start.await();
                            return standIn.run(standIn.encode("annual leave days", passages));
                        }));
                    }
                    start.countDown();
                    for (int i = 0; i < inputs.size(); i++) {
                        float[] p = parallel.get(i).get();
                        for (int j = 0; j < p.length; j++) {
                            assertEquals(serial.get(i)[j], p[j], 1e-6, "input " + i + " passage " + j);
                        }
                    }
                }
            } finally {
                pool.shutdown();
            }
        }
    }

    @Test
    void concurrentFirstCallersWaitForOneLoad() throws Exception {
        try (ModelRegistry registry = new ModelRegistry()) {
            int callers = 8;
            ExecutorService pool = Executors.newFixedThreadPool(callers);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<ModelRegistry.LoadedModel>> loads = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                loads.add(pool.submit(() -> {
                    start.await();
                    return registry.load(ModelFiles.builtin(ModelFiles.BUILTIN_MINILM), SETTINGS);
                }));
            }
            start.countDown();
            ModelRegistry.LoadedModel first = loads.get(0).get();
            for (Future<ModelRegistry.LoadedModel> f : loads) {
                assertSame(first.session(), f.get().session());
            }
            pool.shutdown();
            assertEquals(1, registry.loadCount());

            // Two projects naming the same reranker share the session too.
            RerankerFactory factory = new RerankerFactory(registry, SETTINGS);
            factory.create(RerankerModel.builtin(RerankerFactory.STAND_IN, 128));
            factory.create(RerankerModel.builtin(RerankerFactory.STAND_IN, 256));
            assertEquals(1, registry.loadCount());
            // Different session settings are a different key.
            registry.load(ModelFiles.builtin(ModelFiles.BUILTIN_MINILM), new SessionSettings(2, SessionSettings.Arena.SHRINK));
            assertEquals(2, registry.loadCount());
        }
    }
}
