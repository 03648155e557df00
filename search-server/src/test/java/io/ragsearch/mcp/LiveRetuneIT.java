package io.ragsearch.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.ragsearch.contract.AdminEndpoints;
import io.ragsearch.contract.Environment;
import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.contract.calibration.CalibrationJson;
import io.ragsearch.contract.calibration.LiveRerank;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.rerank.RerankerFactory;
import io.ragsearch.search.TestProjects;
import io.ragsearch.server.SearchServerApp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real server re-tunes its rerank permits when the memory or CPU limit it reads changes while
 * it serves (what an in-place resize does to its cgroup's memory.max and cpu.max; here real files
 * named by RAGSEARCH_MEMORY_LIMIT_FILE and RAGSEARCH_CPU_LIMIT_FILE), and when a memory decrease
 * is announced ahead; searches keep being answered throughout.
 */
class LiveRetuneIT {

    @TempDir
    Path dir;

    /** The limit under which the pod's own measurement allows {@code runs} runs (and a half: no rounding edge). */
    private static long limitFor(Calibration c, double runs) {
        return (long) ((c.residentBytes() + runs * c.perRunBytes()) / 0.9);
    }

    @Test
    void thePermitsFollowTheLimitFileAndAnAnnouncedDecreaseWithoutFailedSearches() throws Exception {
        Path limitFile = dir.resolve("memory.max");
        Files.writeString(limitFile, "max\n");
        ServerSettings.RerankerRef standIn = ServerSettings.RerankerRef.ofBuiltin(RerankerFactory.STAND_IN).withMaxSeqLen(64);
        ServerSettings config = ServerSettings.EMPTY.withServer(TestServers.server("127.0.0.1", 4, 32, null))
                .withRerank(ServerSettings.Rerank.EMPTY.withQueueTimeoutMillis(30_000).withIntraOpThreads(1).withCalibrate(true)
                        .withCalibrationLevels(List.of(1, 2)).withRetune(new ServerSettings.Retune(null, false, 10, null)))
                .withProjects(List.of(ServerSettings.Project.ofDirectory("handbook-en", TestProjects.sampleDirectory("en").toString())
                        .withDescription("").withReranker(standIn)));
        try (SearchServerApp app = SearchServerApp.start(config, Map.of(Environment.RERANK_CONCURRENCY, "2",
                Environment.MEMORY_LIMIT_FILE, limitFile.toString()))) {
            Calibration measured = CalibrationJson.parse(admin(app, "GET", AdminEndpoints.CALIBRATION).body());
            LiveRerank atStart = live(app);
            assertEquals(new LiveRerank(null, LiveRerank.SOURCE_START, 2, 0, true, 0, null), atStart,
                    "no limit at the start: the operator's 2 holds");

            AtomicBoolean searching = new AtomicBoolean(true);
            ExecutorService callers = Executors.newFixedThreadPool(2);
            List<Future<List<String>>> failures = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                failures.add(callers.submit(() -> searchUntilStopped(app, searching)));
            }
            try {
                long three = limitFor(measured, 3.5);
                Files.writeString(limitFile, three + "\n");
                LiveRerank raised = awaitLive(app, l -> l.memoryLimitBytes() != null && l.memoryLimitBytes() == three);
                assertEquals(3, raised.concurrency());
                assertEquals(LiveRerank.SOURCE_CGROUP, raised.limitSource());
                assertTrue(metrics(app).contains("ragsearch_rerank_concurrency 3"));
                assertTrue(metrics(app).contains("ragsearch_memory_limit_bytes " + three), metrics(app));

                long one = limitFor(measured, 1.5);
                HttpResponse<String> announced = admin(app, "PUT", AdminEndpoints.RERANK_MEMORY_LIMIT + "?bytes=" + one);
                assertEquals(200, announced.statusCode(), announced.body());
                assertTrue(announced.body().contains("\"concurrency\":1"), "in force when the caller is told: " + announced.body());
                assertEquals(1, live(app).concurrency());
                assertEquals(LiveRerank.SOURCE_ANNOUNCED, live(app).limitSource());
                awaitLive(app, LiveRerank::inForce);

                Files.writeString(limitFile, one + "\n");
                LiveRerank lowered = awaitLive(app, l -> l.limitSource().equals(LiveRerank.SOURCE_CGROUP));
                assertEquals(1, lowered.concurrency());
                assertEquals(one, lowered.memoryLimitBytes());
                assertEquals(2, lowered.retunes(), "the cgroup reaching the announced limit moves nothing again");
                assertEquals(400, admin(app, "PUT", AdminEndpoints.RERANK_MEMORY_LIMIT + "?bytes=lots").statusCode());
                assertEquals(405, admin(app, "GET", AdminEndpoints.RERANK_MEMORY_LIMIT).statusCode());
            } finally {
                searching.set(false);
                callers.shutdown();
            }
            List<String> failed = new ArrayList<>();
            for (Future<List<String>> f : failures) {
                failed.addAll(f.get());
            }
            assertEquals(List.of(), failed, "searches during the re-tunes");
            assertTrue(metrics(app).contains("ragsearch_rerank_retunes_total 2"), metrics(app));
        }
    }

    @Test
    void thePermitsFollowTheCpuLimitFileAndTheOperatorsHoldsWhileItSaysWhatItSaidAtTheStart() throws Exception {
        Path memoryFile = dir.resolve("memory.max");
        Files.writeString(memoryFile, "max\n");
        Path cpuFile = dir.resolve("cpu.max");
        Files.writeString(cpuFile, "max 100000\n");
        ServerSettings.RerankerRef standIn = ServerSettings.RerankerRef.ofBuiltin(RerankerFactory.STAND_IN).withMaxSeqLen(64);
        // The operator computed 2 for three cores (its cpuLimitMillis); the cgroup says no limit, and keeps saying it at first.
        ServerSettings config = ServerSettings.EMPTY.withServer(TestServers.server("127.0.0.1", 4, 32, null))
                .withRerank(ServerSettings.Rerank.EMPTY.withQueueTimeoutMillis(30_000).withIntraOpThreads(1).withCalibrate(true)
                        .withCalibrationLevels(List.of(1, 2)).withRetune(new ServerSettings.Retune(null, false, 10, 3000)))
                .withProjects(List.of(ServerSettings.Project.ofDirectory("handbook-en", TestProjects.sampleDirectory("en").toString())
                        .withDescription("").withReranker(standIn)));
        try (SearchServerApp app = SearchServerApp.start(config, Map.of(Environment.RERANK_CONCURRENCY, "2",
                Environment.MEMORY_LIMIT_FILE, memoryFile.toString(), Environment.CPU_LIMIT_FILE, cpuFile.toString()))) {
            Calibration measured = CalibrationJson.parse(admin(app, "GET", AdminEndpoints.CALIBRATION).body());
            assertEquals(Long.valueOf(3000), live(app).cpuLimitMillis(), "the operator's CPU limit while the cgroup says what it did");

            AtomicBoolean searching = new AtomicBoolean(true);
            ExecutorService callers = Executors.newFixedThreadPool(2);
            List<Future<List<String>>> failures = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                failures.add(callers.submit(() -> searchUntilStopped(app, searching)));
            }
            try {
                long four = limitFor(measured, 4.5);
                Files.writeString(memoryFile, four + "\n");
                LiveRerank byCpu = awaitLive(app, l -> l.memoryLimitBytes() != null && l.memoryLimitBytes() == four);
                assertEquals(3, byCpu.concurrency(), "four by memory, three by the operator's 3000m");

                Files.writeString(cpuFile, "100000 100000\n"); // resized in place to one core
                LiveRerank one = awaitLive(app, l -> Long.valueOf(1000).equals(l.cpuLimitMillis()));
                assertEquals(1, one.concurrency());
                assertTrue(metrics(app).contains("ragsearch_cpu_limit_millis 1000"), metrics(app));
                assertTrue(metrics(app).contains("ragsearch_rerank_concurrency 1"), metrics(app));

                Files.writeString(cpuFile, "200000 100000\n");
                assertEquals(2, awaitLive(app, l -> Long.valueOf(2000).equals(l.cpuLimitMillis())).concurrency());

                Files.writeString(cpuFile, "max 100000\n"); // what it said at the start: the operator's 3000m again
                assertEquals(3, awaitLive(app, l -> Long.valueOf(3000).equals(l.cpuLimitMillis())).concurrency());
                awaitLive(app, LiveRerank::inForce);
            } finally {
                searching.set(false);
                callers.shutdown();
            }
            List<String> failed = new ArrayList<>();
            for (Future<List<String>> f : failures) {
                failed.addAll(f.get());
            }
            assertEquals(List.of(), failed, "searches during the re-tunes");
            assertTrue(metrics(app).contains("ragsearch_rerank_retunes_total 4"), metrics(app));
        }
    }

    private static List<String> searchUntilStopped(SearchServerApp app, AtomicBoolean searching) {
        List<String> failed = new ArrayList<>();
        McpSyncClient client = TestServers.client(app.mcpPort());
        try {
            while (searching.get()) {
                CallToolResult r = client.callTool(new CallToolRequest("search", Map.of("project", "handbook-en", "query", "annual leave")));
                if (Boolean.TRUE.equals(r.isError())) {
                    failed.add(((TextContent) r.content().get(0)).text());
                }
            }
        } catch (RuntimeException e) {
            failed.add(e.toString());
        } finally {
            client.closeGracefully();
        }
        return failed;
    }

    private static LiveRerank live(SearchServerApp app) throws Exception {
        return CalibrationJson.parseLive(admin(app, "GET", AdminEndpoints.CALIBRATION).body()).orElseThrow();
    }

    private static LiveRerank awaitLive(SearchServerApp app, java.util.function.Predicate<LiveRerank> condition) {
        return Awaitility.await("the /calibration live block to change").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100)).until(() -> live(app), condition::test);
    }

    private static String metrics(SearchServerApp app) throws Exception {
        return admin(app, "GET", AdminEndpoints.METRICS).body();
    }

    private static HttpResponse<String> admin(SearchServerApp app, String method, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.adminPort() + path))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }
}
