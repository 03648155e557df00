package io.ragsearch.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.rerank.RerankerFactory;
import io.ragsearch.search.TestProjects;
import io.ragsearch.server.SearchServerApp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The server with the rerank cost stand-in: calibrated before it starts, bounded while it serves. */
class RerankServerIT {

    private static SearchServerApp start(int concurrency, int queueTimeoutMillis) throws Exception {
        return start(concurrency, queueTimeoutMillis, Map.of());
    }

    private static SearchServerApp start(int concurrency, int queueTimeoutMillis, Map<String, String> env) throws Exception {
        ServerSettings.RerankerRef standIn = ServerSettings.RerankerRef.ofBuiltin(RerankerFactory.STAND_IN).withMaxSeqLen(64);
        ServerSettings config = ServerSettings.EMPTY.withServer(TestServers.server("127.0.0.1", 4, 32, null))
                .withRerank(ServerSettings.Rerank.EMPTY.withConcurrency(concurrency).withQueueTimeoutMillis(queueTimeoutMillis)
                        .withIntraOpThreads(1).withCalibrate(true).withCalibrationLevels(List.of(1, 2)))
                .withProjects(List.of(ServerSettings.Project.ofDirectory("handbook-en", TestProjects.sampleDirectory("en").toString())
                        .withDescription("").withReranker(standIn)));
        return SearchServerApp.start(config, env);
    }

    private static HttpResponse<String> admin(SearchServerApp app, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.adminPort() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void calibrationIsPublishedAndSearchesRunTheStandIn() throws Exception {
        try (SearchServerApp app = start(1, 10_000)) {
            HttpResponse<String> response = admin(app, "/calibration");
            assertEquals(200, response.statusCode());
            JsonNode c = JsonMapper.builder().build().readTree(response.body());
            for (String field : List.of("method", "memoryLimitBytes", "residentBytes", "perRunBytes", "samples", "batch",
                    "maxSeqLen", "intraOpThreads", "rerankerDigest", "measuredAt")) {
                assertTrue(c.has(field), field + " in " + response.body());
            }
            assertTrue(c.get("perRunBytes").asLong() > 0);
            assertEquals(2, c.get("samples").asInt());
            assertEquals(32, c.get("batch").asInt());
            assertEquals(64, c.get("maxSeqLen").asInt());
            assertTrue(c.get("rerankerDigest").asString().startsWith("sha256:"));

            String info = admin(app, "/info").body();
            assertTrue(info.contains("\"role\":\"reranker\"") && info.contains("\"trained\":false"), info);
            assertTrue(info.contains("\"rerankConcurrency\":1"), info);
            assertTrue(admin(app, "/metrics").body().contains("ragsearch_calibration_per_run_bytes"));

            McpSyncClient client = TestServers.client(app.mcpPort());
            CallToolResult r = client.callTool(new CallToolRequest("search", Map.of("project", "handbook-en", "query", "annual leave")));
            @SuppressWarnings("unchecked")
            Map<String, Object> s = (Map<String, Object>) r.structuredContent();
            assertEquals("minilm-pair (cost stand-in)", s.get("reranker"));
            client.closeGracefully();
            String metrics = admin(app, "/metrics").body();
            assertTrue(metrics.contains("ragsearch_rerank_duration_seconds_count 1"), metrics);
            assertTrue(metrics.contains("ragsearch_search_seconds_count 1"), metrics);
        }
    }

    /**
     * The operator's decision reaches a pod as RAGSEARCH_RERANK_CONCURRENCY and wins over the file;
     * through the tests' entry point it was once silently ignored (issue 24).
     */
    @Test
    void theRerankConcurrencyFromTheEnvironmentReplacesTheFilesOne() throws Exception {
        try (SearchServerApp app = start(1, 10_000, Map.of("RAGSEARCH_RERANK_CONCURRENCY", "3"))) {
            String metrics = admin(app, "/metrics").body();
            assertEquals(3, counter(metrics, "ragsearch_rerank_concurrency"), "the limiter's permits: " + metrics);
            String info = admin(app, "/info").body();
            assertTrue(info.contains("\"rerankConcurrency\":3"), info);
        }
    }

    @Test
    void reranksBeyondTheBoundEndAsBusyRetry() throws Exception {
        try (SearchServerApp app = start(1, 1)) {
            TestServers.Tally t = TestServers.concurrentSearches(app.mcpPort(), 8, "handbook-en",
                    "leave days work hours overtime remote");
            int ok = t.ok();
            int busy = t.busy();
            assertTrue(ok >= 1 && busy >= 1, "ok=" + ok + " busy=" + busy);
            // Busy answers come from the rerank lane (not started within the budget, or its queue full) or from the permit wait.
            String metrics = admin(app, "/metrics").body();
            assertEquals(busy, counter(metrics, "ragsearch_rerank_lane_busy_total") + counter(metrics, "ragsearch_rerank_busy_rejections_total"),
                    metrics);
        }
    }

    private static long counter(String metrics, String name) {
        return metrics.lines().filter(l -> l.startsWith(name + " ")).mapToLong(l -> (long) Double.parseDouble(l.substring(name.length() + 1)))
                .findFirst().orElse(0);
    }
}
