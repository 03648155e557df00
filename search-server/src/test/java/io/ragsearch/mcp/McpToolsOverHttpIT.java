package io.ragsearch.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.ragsearch.search.RelevanceGate;
import io.ragsearch.server.SearchServerApp;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every tool through the SDK's own Java client over HTTP, against the real server. */
class McpToolsOverHttpIT {

    private static SearchServerApp app;
    private static McpSyncClient client;

    @BeforeAll
    static void start() throws Exception {
        app = TestServers.startSample(TestServers.server("127.0.0.1", null, null, null));
        client = TestServers.client(app.mcpPort());
    }

    @AfterAll
    static void stop() {
        client.closeGracefully();
        app.close();
    }

    private static CallToolResult call(String tool, Map<String, Object> args) {
        return client.callTool(new CallToolRequest(tool, args));
    }

    private static String text(CallToolResult r) {
        return ((TextContent) r.content().get(0)).text();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> structured(CallToolResult r) {
        assertFalse(Boolean.TRUE.equals(r.isError()), () -> "tool error: " + text(r));
        return (Map<String, Object>) r.structuredContent();
    }

    @Test
    void toolsAreListedReadOnlyWithInputAndOutputSchemas() {
        List<Tool> tools = client.listTools().tools();
        assertEquals(List.of("list_documents", "list_projects", "read_article", "search"),
                tools.stream().map(Tool::name).sorted().toList());
        for (Tool t : tools) {
            assertTrue(t.annotations().readOnlyHint(), t.name());
            assertFalse(t.annotations().destructiveHint(), t.name());
            assertNotNull(t.outputSchema(), t.name());
            assertEquals("object", t.inputSchema().get("type"), t.name());
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void listProjects() {
        CallToolResult r = call("list_projects", Map.of());
        List<Map<String, Object>> projects = (List<Map<String, Object>>) structured(r).get("projects");
        assertEquals(List.of("handbook-en", "handbook-ko"), projects.stream().map(p -> p.get("name")).toList());
        assertEquals("lexical", projects.get(1).get("retrieval"));
        assertEquals(3, projects.get(1).get("documents"));
        assertTrue(text(r).contains("handbook-ko"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void searchReturnsArticlesWithDocumentIdLabelAndTheGatesNumbers() {
        CallToolResult r = call("search", Map.of("project", "handbook-ko", "query", "해외출장 숙박비", "top_k", 2));
        Map<String, Object> s = structured(r);
        assertEquals("handbook-ko", s.get("project"));
        List<Map<String, Object>> results = (List<Map<String, Object>>) s.get("results");
        assertEquals("출장여비규정", results.get(0).get("document"));
        assertEquals("제5조", results.get(0).get("article"));
        assertEquals("숙박비", results.get(0).get("title"));
        assertTrue(((String) results.get(0).get("text")).contains("12만원"));
        assertTrue(results.size() <= 2);
        Map<String, Object> gate = (Map<String, Object>) s.get("gate");
        assertEquals(true, gate.get("passed"));
        assertEquals(RelevanceGate.LEXICAL_THRESHOLD, ((Number) gate.get("threshold")).doubleValue(), "a lexical project's default");
        assertTrue(text(r).contains("제5조"), text(r));
    }

    @Test
    @SuppressWarnings("unchecked")
    void searchWithoutSupportSaysSoAndCarriesTheNumbers() {
        CallToolResult r = call("search", Map.of("project", "handbook-en", "query", "quantum spaceship propulsion"));
        Map<String, Object> s = structured(r);
        assertTrue(((List<?>) s.get("results")).isEmpty());
        Map<String, Object> gate = (Map<String, Object>) s.get("gate");
        assertEquals(false, gate.get("passed"));
        assertTrue(((Number) gate.get("bestScore")).doubleValue() < 0.5);
        assertTrue(text(r).startsWith("No supporting documents"), text(r));
    }

    @Test
    @SuppressWarnings("unchecked")
    void listDocumentsAndReadArticle() {
        List<Map<String, Object>> docs = (List<Map<String, Object>>) structured(
                call("list_documents", Map.of("project", "handbook-ko"))).get("documents");
        assertEquals(List.of("정보보안규정", "출장여비규정", "취업규칙"), docs.stream().map(d -> d.get("id")).toList());

        Map<String, Object> article = structured(call("read_article",
                Map.of("project", "handbook-ko", "document", "취업규칙", "article", "제7조의2")));
        assertEquals("재택근무", article.get("title"));
        assertEquals(false, article.get("deleted"));
        assertTrue(((String) article.get("text")).contains("주 2일"));

        Map<String, Object> deleted = structured(call("read_article",
                Map.of("project", "handbook-ko", "document", "취업규칙", "article", "제8조")));
        assertEquals(true, deleted.get("deleted"));
    }

    @Test
    void unknownNamesAreToolErrorsThatNameWhatExists() {
        CallToolResult project = call("search", Map.of("project", "hr", "query", "휴가"));
        assertTrue(project.isError());
        assertTrue(text(project).contains("unknown project 'hr'") && text(project).contains("handbook-en, handbook-ko"), text(project));

        CallToolResult document = call("read_article", Map.of("project", "handbook-ko", "document", "급여규정", "article", "제1조"));
        assertTrue(document.isError());
        assertTrue(text(document).contains("정보보안규정, 출장여비규정, 취업규칙"), text(document));

        CallToolResult article = call("read_article", Map.of("project", "handbook-ko", "document", "출장여비규정", "article", "제99조"));
        assertTrue(article.isError());
        assertTrue(text(article).contains("제6조의2"), text(article));

        CallToolResult docs = call("list_documents", Map.of("project", "nope"));
        assertTrue(docs.isError());
    }

    @Test
    void badQueriesAreClearToolErrors() {
        CallToolResult empty = call("search", Map.of("project", "handbook-en", "query", "  "));
        assertTrue(empty.isError());
        assertTrue(text(empty).contains("query is empty"), text(empty));

        CallToolResult huge = call("search", Map.of("project", "handbook-en", "query", "leave ".repeat(400)));
        assertTrue(huge.isError());
        assertTrue(text(huge).contains("limit is 1000"), text(huge));

        CallToolResult k = call("search", Map.of("project", "handbook-en", "query", "leave", "top_k", 500));
        assertTrue(k.isError(), text(k));

        CallToolResult extra = call("search", Map.of("project", "handbook-en", "query", "leave", "colour", "red"));
        assertTrue(extra.isError(), text(extra));

        CallToolResult missing = call("search", Map.of("project", "handbook-en"));
        assertTrue(missing.isError(), text(missing));
    }

    @Test
    void loopbackServerRejectsAForeignHostHeader() throws Exception {
        TestServers.RawResponse bad = TestServers.raw(app.mcpPort(), "POST", "attacker.example:80",
                TestServers.JSON_HEADERS, TestServers.INITIALIZE);
        assertEquals(421, bad.status());
        TestServers.RawResponse good = TestServers.raw(app.mcpPort(), "POST", "localhost:" + app.mcpPort(),
                TestServers.JSON_HEADERS, TestServers.INITIALIZE);
        assertEquals(200, good.status(), good.body());

        java.util.Map<String, String> foreignOrigin = new java.util.HashMap<>(TestServers.JSON_HEADERS);
        foreignOrigin.put("Origin", "http://attacker.example");
        assertEquals(403, TestServers.raw(app.mcpPort(), "POST", "localhost:" + app.mcpPort(), foreignOrigin,
                TestServers.INITIALIZE).status());
        java.util.Map<String, String> localOrigin = new java.util.HashMap<>(TestServers.JSON_HEADERS);
        localOrigin.put("Origin", "http://localhost:3000");
        assertEquals(200, TestServers.raw(app.mcpPort(), "POST", "localhost:" + app.mcpPort(), localOrigin,
                TestServers.INITIALIZE).status());
    }

    @Test
    void malformedTransportRequestsGetCleanJsonRpcErrors() throws Exception {
        String host = "127.0.0.1:" + app.mcpPort();
        TestServers.RawResponse get = TestServers.raw(app.mcpPort(), "GET", host, Map.of("Accept", "text/event-stream"), "");
        assertEquals(405, get.status());
        TestServers.RawResponse type = TestServers.raw(app.mcpPort(), "POST", host,
                Map.of("Content-Type", "text/plain", "Accept", "application/json, text/event-stream"), TestServers.INITIALIZE);
        assertEquals(415, type.status());
        TestServers.RawResponse accept = TestServers.raw(app.mcpPort(), "POST", host,
                Map.of("Content-Type", "application/json", "Accept", "application/json"), TestServers.INITIALIZE);
        assertEquals(406, accept.status());
        TestServers.RawResponse notJson = TestServers.raw(app.mcpPort(), "POST", host, TestServers.JSON_HEADERS, "not json");
        assertEquals(400, notJson.status());
        assertTrue(notJson.body().contains("-32700"), notJson.body());
        TestServers.RawResponse batch = TestServers.raw(app.mcpPort(), "POST", host, TestServers.JSON_HEADERS,
                "[" + TestServers.INITIALIZE + "]");
        assertEquals(400, batch.status());
        assertTrue(batch.body().contains("batches are not supported"), batch.body());
        for (TestServers.RawResponse r : List.of(get, type, accept, notJson, batch)) {
            assertTrue(r.body().contains("\"jsonrpc\":\"2.0\""), r.body());
            assertFalse(r.body().contains("Exception") || r.body().contains("\tat "), r.body());
        }
    }
}
