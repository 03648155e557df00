package io.ragsearch.mcp;

import io.ragsearch.config.ServerEnvironment;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.search.TestProjects;
import io.ragsearch.server.StdioServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/** {@code ragsearch stdio}: MCP 2026-07-28 over a pipe, the same tools and answers, ended by closing the input. */
class StdioServerIT {

    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

    @Test
    void servesTheToolsOverAPipeUntilTheInputCloses() throws Exception {
        ServerSettings config = ServerSettings.EMPTY.withServer(TestServers.server("127.0.0.1", null, null, null)).withProjects(List.of(TestProjects.config("handbook-en", TestProjects.sampleDirectory("en"), null)));
        PipedOutputStream toServer = new PipedOutputStream();
        PipedInputStream serverIn = new PipedInputStream(toServer, 1 << 16);
        PipedInputStream fromServer = new PipedInputStream(1 << 20);
        PipedOutputStream serverOut = new PipedOutputStream(fromServer);
        CompletableFuture<Void> running = CompletableFuture.runAsync(() -> {
            try {
                StdioServer.run(config, ServerEnvironment.read(Map.of()), serverIn, serverOut);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        BufferedReader replies = new BufferedReader(new InputStreamReader(fromServer, StandardCharsets.UTF_8));

        JsonNode discover = ask(toServer, replies, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{" + META + "}}");
        assertEquals(List.of("2026-07-28"), JSON.convertValue(discover.get("result").get("supportedVersions"), List.class),
                "only 2026-07-28 on stdio");
        JsonNode tools = ask(toServer, replies, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{" + META + "}}");
        assertEquals(4, tools.get("result").get("tools").size(), tools.toString());
        JsonNode search = ask(toServer, replies, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"search\","
                + "\"arguments\":{\"project\":\"handbook-en\",\"query\":\"how many days of annual leave\"}," + META + "}}");
        assertFalse(search.get("result").get("isError").asBoolean(), search.toString());
        assertTrue(search.get("result").get("structuredContent").get("results").size() > 0, search.toString());
        JsonNode unknown = ask(toServer, replies, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"drop_tables\","
                + META + "}}");
        assertTrue(unknown.get("error").get("message").asString().startsWith("unknown tool 'drop_tables'; this server's tools:"),
                unknown.toString());
        JsonNode old = ask(toServer, replies, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\",\"params\":{\"_meta\":"
                + "{\"io.modelcontextprotocol/protocolVersion\":\"2025-11-25\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}");
        assertEquals(-32022, old.get("error").get("code").asInt(), old.toString());

        toServer.close(); // the agent goes away
        running.get(30, TimeUnit.SECONDS);
    }

    private static JsonNode ask(OutputStream out, BufferedReader in, String line) throws Exception {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        String reply = in.readLine();
        assertTrue(reply != null, "no reply to " + line);
        return JSON.readTree(reply);
    }
}
