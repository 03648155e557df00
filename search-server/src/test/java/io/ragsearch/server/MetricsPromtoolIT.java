package io.ragsearch.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.ragsearch.mcp.TestServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The server's real /metrics, after calls of every outcome, passes Prometheus's own linter
 * ({@code promtool check metrics}, through scripts/test/promtool.sh) and carries the series issue 23
 * asked for: counters typed as counters, refused and unknown calls counted, refusals per
 * project, the standard process and JVM names.
 */
class MetricsPromtoolIT {

    @Test
    void metricsPassPromtoolAndCountEveryKindOfCall() throws Exception {
        try (SearchServerApp app = TestServers.startSample(TestServers.server("127.0.0.1", null, null, null))) {
            McpSyncClient client = TestServers.client(app.mcpPort());
            try {
                client.callTool(new CallToolRequest("search", Map.of("project", "handbook-en", "query", "annual leave days")));
                client.callTool(new CallToolRequest("search", Map.of("project", "handbook-en", "query", "quantum spaceship propulsion")));
                client.callTool(new CallToolRequest("search", Map.of("project", "handbook-en", "query", "x", "top_k", 0)));
                client.callTool(new CallToolRequest("list_documents", Map.of("project", "nope")));
                try {
                    client.callTool(new CallToolRequest("drop_tables", Map.of()));
                } catch (McpError expected) {
                    // counted all the same
                }
            } finally {
                client.closeGracefully();
            }
            String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + app.adminPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();

            assertTrue(metrics.contains("# TYPE ragsearch_embedding_texts_total counter\n"), metrics);
            for (String series : new String[] {
                    "ragsearch_tool_calls_total{tool=\"search\",outcome=\"ok\"} 2",
                    "ragsearch_tool_calls_total{tool=\"search\",outcome=\"invalid\"} 1",
                    "ragsearch_tool_calls_total{tool=\"list_documents\",outcome=\"error\"} 1",
                    "ragsearch_tool_calls_total{tool=\"unknown\",outcome=\"unknown_tool\"} 1",
                    "ragsearch_search_refusals_total{project=\"handbook-en\"} 1"}) {
                assertTrue(metrics.contains(series + "\n"), series + " in\n" + metrics);
            }
            for (String name : new String[] {"process_resident_memory_bytes", "process_start_time_seconds", "process_cpu_seconds_total",
                    "process_open_fds", "process_max_fds", "jvm_memory_used_bytes{area=\"heap\"}", "jvm_threads_current"}) {
                assertTrue(metrics.contains("\n" + name + " "), name);
            }

            Path file = Files.createTempFile("metrics", ".txt");
            Files.writeString(file, metrics);
            Process promtool = new ProcessBuilder("bash", "../scripts/test/promtool.sh", "check", "metrics")
                    .redirectInput(file.toFile()).redirectErrorStream(true).start();
            assertTrue(promtool.waitFor(300, TimeUnit.SECONDS), "promtool did not finish");
            String said = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            Files.delete(file);
            assertEquals(0, promtool.exitValue(), said);
            assertTrue(said.lines().noneMatch(l -> l.startsWith("ragsearch") || l.startsWith("process") || l.startsWith("jvm")),
                    "promtool's lint findings: " + said);
        }
    }
}
