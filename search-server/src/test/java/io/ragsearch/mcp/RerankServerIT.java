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
        ServerSettings.RerankerRef standIn = new ServerSettings.RerankerRef(RerankerFactory.STAND_IN, null, 64);
        ServerSettings config = new ServerSettings(TestServers.server("127.0.0.1", 4, 32, null), null,
                new ServerSettings.Rerank(concurrency, queueTimeoutMillis, 1, null, true, List.of(1, 2)), null,
                List.of(new ServerSettings.Project("handbook-en", "", new ServerSettings.Source(TestProjects.sampleDirectory("en").toString(), null, null),
                        null, null, null, null, standIn)));
        return SearchServerApp.start(config, Map.of());
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
