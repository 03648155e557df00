package io.ragsearch.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.ragsearch.config.ConfigLoader;
import io.ragsearch.embed.TinyEmbeddingModel;
import io.ragsearch.embed.UnigramTokenizerJson;
import io.ragsearch.server.SearchServerApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The deployment path end to end: a configuration file names a mounted multilingual model
 * directory (model.onnx + Unigram tokenizer.json, below RAGSEARCH_MODEL_DIR) with its
 * settings; the server judges it fit for a Korean corpus (where the built-in MiniLM is not),
 * turns the vector leg on in auto, and serves searches over MCP.
 */
class MultilingualModelServerIT {

    @TempDir
    Path dir;

    @Test
    @SuppressWarnings("unchecked")
    void aMountedMultilingualModelTurnsTheVectorLegOnForKorean() throws Exception {
        Path models = dir.resolve("models");
        TinyEmbeddingModel.write(models.resolve("multilingual-e5"));
        Files.createDirectories(dir.resolve("corpus"));
        Files.writeString(dir.resolve("corpus/rules.md"), UnigramTokenizerJson.KOREAN_SAMPLE);
        Path file = dir.resolve("server.yaml");
        Files.writeString(file, """
                server: {bindAddress: 127.0.0.1, mcpPort: 0, adminPort: 0}
                models:
                  embedding:
                    path: multilingual-e5
                    maxSeqLen: 512
                    queryPrefix: "query: "
                    passagePrefix: "passage: "
                projects:
                  - name: rules
                    source: {directory: corpus}
                """);
        try (SearchServerApp app = SearchServerApp.start(ConfigLoader.load(file), Map.of("RAGSEARCH_MODEL_DIR", models.toString()))) {
            assertEquals("hybrid", app.catalog().get("rules").mode().wireName());
            assertTrue(app.catalog().get("rules").modeReason().startsWith("auto: vector leg on"), app.catalog().get("rules").modeReason());
            McpSyncClient client = TestServers.client(app.mcpPort());
            try {
                CallToolResult projects = client.callTool(new CallToolRequest("list_projects", Map.of()));
                List<Map<String, Object>> listed = (List<Map<String, Object>>) ((Map<String, Object>) projects.structuredContent()).get("projects");
                assertEquals("hybrid", listed.get(0).get("retrieval"));
                CallToolResult r = client.callTool(new CallToolRequest("search", Map.of("project", "rules", "query", "연차 휴가")));
                assertFalse(Boolean.TRUE.equals(r.isError()), r.toString());
            } finally {
                client.closeGracefully();
            }
        }
    }
}
