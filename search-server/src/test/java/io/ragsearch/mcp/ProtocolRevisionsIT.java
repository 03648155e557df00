package io.ragsearch.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.client.McpClient;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.ragsearch.server.SearchServerApp;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * One endpoint, two revisions: a real 2026-07-28 client (the SDK's new client) and a real
 * 2025-11-25 client against the real server see the same tools and the same answers, and
 * the refusals issue 23 found are answered clearly on both.
 */
class ProtocolRevisionsIT {

    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static SearchServerApp app;
    private static McpSyncClient legacy;
    private static io.modelcontextprotocol.modern.client.McpSyncClient modern;

    @BeforeAll
    static void start() throws Exception {
        app = TestServers.startSample(TestServers.server("127.0.0.1", null, null, null));
        legacy = TestServers.client(app.mcpPort());
        modern = modernClient(app.mcpPort());
    }

    @AfterAll
    static void stop() {
        legacy.closeGracefully();
        app.close();
    }

    static io.modelcontextprotocol.modern.client.McpSyncClient modernClient(int port) {
        return McpClient.sync(HttpClientMcpTransport.builder("http://127.0.0.1:" + port + "/mcp").build())
                .callTimeout(Duration.ofSeconds(120))
                .build();
    }

    @Test
    void discoverTellsTheTruth() {
        io.modelcontextprotocol.modern.McpSchema.DiscoverResult d = modern.discover();
        assertEquals(List.of("2026-07-28", "2025-11-25", "2025-06-18"), d.supportedVersions());
        assertNotNull(d.capabilities().tools(), "tools capability");
        assertEquals(null, d.capabilities().resources(), "no resources are offered");
        assertEquals(null, d.capabilities().prompts(), "no prompts are offered");
        assertTrue(d.instructions().contains("list_projects"), d.instructions());
    }

    @Test
    void bothRevisionsListTheSameToolsWithTheSameSchemasAndAnnotations() {
        List<JsonNode> old = legacy.listTools().tools().stream().map(ProtocolRevisionsIT::tree).toList();
        List<JsonNode> now = modern.tools().list().tools().stream().map(ProtocolRevisionsIT::tree).toList();
        assertEquals(4, old.size());
        assertEquals(old, now);
        for (JsonNode t : now) {
            assertTrue(t.get("annotations").get("readOnlyHint").asBoolean(), t.toString());
            assertEquals("object", t.get("outputSchema").get("type").asString(), t.toString());
        }
    }

    @Test
    void everyToolAnswersTheSameOnBothRevisions() {
        List<Map.Entry<String, Map<String, Object>>> calls = List.of(
                Map.entry("list_projects", Map.of()),
                Map.entry("search", Map.of("project", "handbook-en", "query", "how many days of annual leave")),
                Map.entry("list_documents", Map.of("project", "handbook-ko")),
                Map.entry("read_article", Map.of("project", "handbook-ko", "document", "취업규칙", "article", "제7조의2")));
        for (Map.Entry<String, Map<String, Object>> c : calls) {
            McpSchema.CallToolResult old = legacy.callTool(new McpSchema.CallToolRequest(c.getKey(), c.getValue()));
            io.modelcontextprotocol.modern.McpSchema.CallToolResult now = modern.tool(c.getKey()).arguments(c.getValue()).call();
            assertFalse(Boolean.TRUE.equals(old.isError()), c.getKey());
            assertFalse(Boolean.TRUE.equals(now.isError()), c.getKey());
            assertEquals(tree(old.structuredContent()), tree(now.structuredContent()), c.getKey());
            assertEquals(((McpSchema.TextContent) old.content().get(0)).text(),
                    ((io.modelcontextprotocol.modern.McpSchema.TextContent) now.content().get(0)).text(), c.getKey());
        }
    }

    @Test
    void anUnknownToolIsNamedWithTheToolsThatExistOnBothRevisions() throws Exception {
        String expected = "unknown tool 'drop_tables'; this server's tools: list_projects, search, list_documents, read_article";
        McpError old = assertThrows(McpError.class, () -> legacy.callTool(new McpSchema.CallToolRequest("drop_tables", Map.of())));
        assertTrue(old.getMessage().contains(expected), old.getMessage());
        // The SDK's new client will not even send a call for a tool the server did not list: raw 2026-07-28 request.
        Reply now = modernPost(9, "tools/call", "drop_tables", "\"name\":\"drop_tables\",\"arguments\":{}");
        assertEquals(9, now.json().get("id").asInt(), now.body());
        assertEquals(-32602, now.json().get("error").get("code").asInt(), now.body());
        assertEquals(expected, now.json().get("error").get("message").asString());
    }

    @Test
    void invalidArgumentsAreToolErrorsOnBothRevisionsAndEveryRefusedCallIsCounted() throws Exception {
        String before = metrics();
        Map<String, Object> bad = Map.of("project", "handbook-en", "query", "leave", "top_k", "many");
        McpSchema.CallToolResult old = legacy.callTool(new McpSchema.CallToolRequest("search", bad));
        io.modelcontextprotocol.modern.McpSchema.CallToolResult now = modern.tool("search").arguments(bad).call();
        assertTrue(old.isError());
        assertTrue(now.isError());
        String oldText = ((McpSchema.TextContent) old.content().get(0)).text();
        assertTrue(oldText.startsWith("invalid arguments for tool 'search': "), oldText);
        assertEquals(oldText, ((io.modelcontextprotocol.modern.McpSchema.TextContent) now.content().get(0)).text());
        assertEquals(-32602, modernPost(10, "tools/call", "no_such_tool", "\"name\":\"no_such_tool\"").json()
                .get("error").get("code").asInt());
        String after = metrics();
        assertEquals(count(before, "ragsearch_tool_calls_total{tool=\"search\",outcome=\"invalid\"}") + 2,
                count(after, "ragsearch_tool_calls_total{tool=\"search\",outcome=\"invalid\"}"), after);
        assertTrue(count(after, "ragsearch_tool_calls_total{tool=\"unknown\",outcome=\"unknown_tool\"}")
                > count(before, "ragsearch_tool_calls_total{tool=\"unknown\",outcome=\"unknown_tool\"}"), after);
    }

    @Test
    void aCursorThisServerNeverIssuedIsRefusedOnBothRevisions() throws Exception {
        McpException now = assertThrows(McpException.class, () -> modern.tools().cursor("bogus").list());
        assertEquals(-32602, now.error().code());
        assertTrue(now.error().message().contains("invalid cursor 'bogus'"), now.error().message());
        JsonNode old = post("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\",\"params\":{\"cursor\":\"bogus\"}}",
                "2025-11-25", "application/json").json();
        assertEquals(7, old.get("id").asInt());
        assertEquals(-32602, old.get("error").get("code").asInt());
        assertTrue(old.get("error").get("message").asString().contains("invalid cursor 'bogus'"), old.toString());
    }

    @Test
    void anUnsupportedVersionSaysWhatIsSupportedAndEchoesTheId() throws Exception {
        for (String version : List.of("2025-03-26", "1999-01-01")) {
            Reply r = post("{\"jsonrpc\":\"2.0\",\"id\":\"req-1\",\"method\":\"tools/list\"}", version, "application/json");
            assertEquals(400, r.status(), r.body());
            JsonNode error = r.json().get("error");
            assertEquals("req-1", r.json().get("id").asString(), r.body());
            assertEquals(-32022, error.get("code").asInt());
            assertEquals(List.of("2026-07-28", "2025-11-25", "2025-06-18"),
                    JSON.convertValue(error.get("data").get("supported"), List.class));
            assertEquals(version, error.get("data").get("requested").asString());
        }
        // The 2026-07-28 way of asking: the version in _meta, the header matching it.
        Reply meta = post("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"server/discover\",\"params\":{\"_meta\":"
                + "{\"io.modelcontextprotocol/protocolVersion\":\"2099-01-01\"}}}", "2099-01-01", "application/json");
        assertEquals(3, meta.json().get("id").asInt(), meta.body());
        assertEquals(-32022, meta.json().get("error").get("code").asInt());
        assertEquals("2099-01-01", meta.json().get("error").get("data").get("requested").asString());
    }

    @Test
    void aHeaderThatDoesNotMirrorMetaIsAMismatchBeforeAnyVersionQuestion() throws Exception {
        Reply r = post("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"server/discover\",\"params\":{\"_meta\":"
                + "{\"io.modelcontextprotocol/protocolVersion\":\"v999.0.0\"}}}", "2026-07-28", "application/json");
        assertEquals(400, r.status(), r.body());
        assertEquals(5, r.json().get("id").asInt(), r.body());
        assertEquals(-32020, r.json().get("error").get("code").asInt(), r.body());
    }

    @Test
    void anAllowedLocalOriginIsServedOnTheNewRevisionToo() throws Exception {
        // The SDK's new transport refuses every Origin by default; OriginHostFilter decides for both revisions.
        Reply ok = modernPost(11, "tools/list", null, "", Map.of("Origin", "http://127.0.0.1:" + app.mcpPort()));
        assertEquals(200, ok.status(), ok.body());
        assertEquals(4, ok.json().get("result").get("tools").size(), ok.body());
        Reply foreign = modernPost(12, "tools/list", null, "", Map.of("Origin", "http://evil.example.com"));
        assertEquals(403, foreign.status(), foreign.body());
    }

    @Test
    void httpLevelErrorsEchoAReadableId() throws Exception {
        Reply type = post("{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"ping\"}", "2025-11-25", "text/plain");
        assertEquals(415, type.status());
        assertEquals(42, type.json().get("id").asInt(), type.body());
        Reply unreadable = post("{\"jsonrpc\":\"2.0\",\"id\":42,", "2025-11-25", "application/json");
        assertEquals(400, unreadable.status());
        assertTrue(unreadable.json().get("id").isNull(), "no id to echo in a body that does not parse: " + unreadable.body());
    }

    @Test
    void aRefusedSearchIsCountedPerProject() throws Exception {
        String label = "ragsearch_search_refusals_total{project=\"handbook-en\"}";
        long before = count(metrics(), label);
        io.modelcontextprotocol.modern.McpSchema.CallToolResult r = modern.tool("search")
                .arguments(Map.of("project", "handbook-en", "query", "quantum spaceship propulsion")).call();
        assertFalse(r.isError());
        assertEquals(before + 1, count(metrics(), label));
    }

    // --- helpers ---

    private static JsonNode tree(Object value) {
        return JSON.valueToTree(JSON.convertValue(JSON.valueToTree(value), Map.class));
    }

    record Reply(int status, String body) {
        JsonNode json() {
            return JSON.readTree(body);
        }
    }

    private static Reply post(String body, String version, String contentType) throws Exception {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Host", "127.0.0.1:" + app.mcpPort());
        headers.put("Content-Type", contentType);
        headers.put("Accept", "application/json, text/event-stream");
        headers.put("MCP-Protocol-Version", version);
        RawHttp.Response r = RawHttp.exchange(app.mcpPort(), "POST", "/mcp", headers, body.getBytes(StandardCharsets.UTF_8));
        return new Reply(r.status(), r.body());
    }

    /** A 2026-07-28 request as the specification shapes it: version and capabilities in _meta, mirrored in headers. */
    private static Reply modernPost(int id, String method, String name, String params) throws Exception {
        return modernPost(id, method, name, params, Map.of());
    }

    private static Reply modernPost(int id, String method, String name, String params, Map<String, String> extra) throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":{" + params
                + (params.isEmpty() ? "" : ",") + "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        headers.put("Accept", "application/json, text/event-stream");
        headers.put("MCP-Protocol-Version", "2026-07-28");
        headers.put("Mcp-Method", method);
        if (name != null) {
            headers.put("Mcp-Name", name);
        }
        headers.putAll(extra);
        RawHttp.Response r = RawHttp.exchange(app.mcpPort(), "POST", "/mcp", headers, body.getBytes(StandardCharsets.UTF_8));
        return new Reply(r.status(), r.body());
    }

    private static String metrics() throws Exception {
        return RawHttp.exchange(app.adminPort(), "GET", "/metrics", Map.of(), new byte[0]).body();
    }

    private static long count(String metrics, String series) {
        return metrics.lines().filter(l -> l.startsWith(series + " ")).mapToLong(l -> Long.parseLong(l.substring(series.length() + 1)))
                .findFirst().orElse(0);
    }
}
