package io.ragsearch.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.search.TestProjects;
import io.ragsearch.server.SearchServerApp;
import io.ragsearch.telemetry.OtelCollector;
import io.ragsearch.telemetry.OtelCollector.ReceivedSpan;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's traces reach a real OpenTelemetry Collector (its OTLP/HTTP receiver, on loopback)
 * when the standard OTEL_* variables point there: a tool call is a SERVER span of the MCP
 * conventions that continues the caller's trace (from the {@code traceparent} header on
 * 2025-11-25, from {@code params._meta} on 2026-07-28, where {@code _meta} wins over a header),
 * and the search's stages are its descendants. The same over stdio, from {@code _meta}.
 */
class TracesToCollectorIT {

    private static final Duration ARRIVAL = Duration.ofSeconds(60);
    /** SPAN_KIND_SERVER and STATUS_CODE_ERROR in OTLP. */
    private static final int SERVER = 2;
    private static final int ERROR = 2;

    @TempDir
    static Path dir;
    private static OtelCollector collector;
    private static SearchServerApp app;

    @BeforeAll
    static void start() throws Exception {
        collector = OtelCollector.start(dir);
        ServerSettings reranked = TestServers.rerankedBesidePlain();
        List<ServerSettings.Project> projects = new ArrayList<>(reranked.projects());
        projects.add(TestProjects.config("handbook-en", TestProjects.sampleDirectory("en"), "hybrid"));
        app = SearchServerApp.start(reranked.withProjects(projects), Map.of(
                "OTEL_EXPORTER_OTLP_ENDPOINT", collector.endpoint(),
                "OTEL_SERVICE_NAME", "ragsearch-traces-it",
                "OTEL_BSP_SCHEDULE_DELAY", "100"));
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
        if (collector != null) {
            collector.close();
        }
    }

    @Test
    void aSearchCalledWithATraceparentHeaderIsOneTraceWithItsStages() throws Exception {
        String traceId = "4bf92f3577b34a4b8d0e1f2a3c4d5e01";
        String callerSpan = "00f067aa0ba902b7";
        String reply = legacyCall(7, "{\"name\":\"search\",\"arguments\":{\"project\":\"handbook-en\",\"query\":\"annual leave\"}}",
                Map.of("traceparent", "00-" + traceId + "-" + callerSpan + "-01"));
        assertTrue(reply.contains("\"isError\":false"), reply);

        List<ReceivedSpan> spans = collector.awaitSpans("the tool span and the search's stages of trace " + traceId, ARRIVAL,
                all -> has(all, traceId, "tools/call search", "search", "search.lexical", "search.vectors", "search.fusion", "search.gate"));
        ReceivedSpan tool = OtelCollector.named(spans, traceId, "tools/call search").orElseThrow();
        assertEquals(callerSpan, tool.parentSpanId(), "the tool span continues the caller's span");
        assertEquals(SERVER, tool.kind());
        assertEquals("ragsearch-traces-it", tool.service());
        assertEquals("tools/call", tool.attributes().get("mcp.method.name"));
        assertEquals("search", tool.attributes().get("gen_ai.tool.name"));
        assertEquals("execute_tool", tool.attributes().get("gen_ai.operation.name"));
        assertEquals("7", tool.attributes().get("jsonrpc.request.id"));
        assertEquals("2025-11-25", tool.attributes().get("mcp.protocol.version"));
        assertEquals("tcp", tool.attributes().get("network.transport"));
        assertTrue(!tool.attributes().containsKey("error.type"), tool.toString());

        ReceivedSpan search = OtelCollector.named(spans, traceId, "search").orElseThrow();
        assertEquals(tool.spanId(), search.parentSpanId(), "the search runs inside the tool call (on a tool thread)");
        assertEquals("handbook-en", search.attributes().get("ragsearch.project"));
        assertEquals("hybrid", search.attributes().get("ragsearch.retrieval.mode"));
        for (String stage : List.of("search.lexical", "search.vectors", "search.fusion", "search.gate")) {
            assertEquals(search.spanId(), OtelCollector.named(spans, traceId, stage).orElseThrow().parentSpanId(), stage);
        }
        ReceivedSpan vectors = OtelCollector.named(spans, traceId, "search.vectors").orElseThrow();
        ReceivedSpan embedding = spans.stream().filter(s -> s.traceId().equals(traceId) && s.name().startsWith("embeddings "))
                .findFirst().orElseThrow(() -> new AssertionError("no embeddings span in " + spans));
        assertEquals(vectors.spanId(), embedding.parentSpanId(), "the query's embedding is part of the vector leg");
        assertEquals("embeddings", embedding.attributes().get("gen_ai.operation.name"));
        assertEquals(embedding.name(), "embeddings " + embedding.attributes().get("gen_ai.request.model"));
        assertEquals("true", OtelCollector.named(spans, traceId, "search.gate").orElseThrow().attributes().get("ragsearch.gate.passed"));
    }

    @Test
    void onTheNewRevisionTheMetaTraceparentWinsOverTheHeaderAndRerankStagesAreTraced() throws Exception {
        String metaTrace = "0af7651916cd43dd8448eb211c80319c";
        String metaSpan = "b7ad6b7169203331";
        String headerTrace = "11111111111111111111111111111111";
        String params = "\"name\":\"search\",\"arguments\":{\"project\":\"reranked\",\"query\":\"annual leave\"}";
        String reply = modernCall(12, params, "00-" + metaTrace + "-" + metaSpan + "-01",
                Map.of("traceparent", "00-" + headerTrace + "-2222222222222222-01"));
        assertTrue(reply.contains("\"isError\":false"), reply);

        List<ReceivedSpan> spans = collector.awaitSpans("the reranked search of trace " + metaTrace, ARRIVAL,
                all -> has(all, metaTrace, "tools/call search", "search", "search.rerank_wait", "search.rerank"));
        ReceivedSpan tool = OtelCollector.named(spans, metaTrace, "tools/call search").orElseThrow();
        assertEquals(metaSpan, tool.parentSpanId());
        assertEquals("12", tool.attributes().get("jsonrpc.request.id"));
        assertEquals("2026-07-28", tool.attributes().get("mcp.protocol.version"));
        assertTrue(spans.stream().noneMatch(s -> s.traceId().equals(headerTrace)), "nothing joined the header's trace");
        ReceivedSpan search = OtelCollector.named(spans, metaTrace, "search").orElseThrow();
        ReceivedSpan wait = OtelCollector.named(spans, metaTrace, "search.rerank_wait").orElseThrow();
        ReceivedSpan rerank = OtelCollector.named(spans, metaTrace, "search.rerank").orElseThrow();
        assertEquals(search.spanId(), wait.parentSpanId());
        assertEquals(search.spanId(), rerank.parentSpanId());
        assertEquals("true", wait.attributes().get("ragsearch.rerank.acquired"));
        assertTrue(Integer.parseInt(rerank.attributes().get("ragsearch.rerank.pairs")) > 0, rerank.toString());
        assertEquals(null, OtelCollector.named(spans, metaTrace, "search.vectors").orElse(null), "a lexical project has no vector leg");
    }

    @Test
    void aToolErrorEndsTheSpanWithTheConventionsErrorType() throws Exception {
        String traceId = "5bf92f3577b34a4b8d0e1f2a3c4d5e02";
        String reply = legacyCall(8, "{\"name\":\"search\",\"arguments\":{\"project\":\"no-such-project\",\"query\":\"leave\"}}",
                Map.of("traceparent", "00-" + traceId + "-00f067aa0ba902b8-01"));
        assertTrue(reply.contains("\"isError\":true"), reply);
        List<ReceivedSpan> spans = collector.awaitSpans("the failed call of trace " + traceId, ARRIVAL,
                all -> has(all, traceId, "tools/call search"));
        ReceivedSpan tool = OtelCollector.named(spans, traceId, "tools/call search").orElseThrow();
        assertEquals("tool_error", tool.attributes().get("error.type"));
        assertEquals(ERROR, tool.statusCode());
        // The project is looked up in the caller's scope before any search starts (issue 30): no
        // search span, and none of its stages (a search span ends before its tool span is exported).
        assertEquals(List.of(), spans.stream().filter(s -> s.traceId().equals(traceId) && s.name().startsWith("search")).toList());
    }

    @Test
    void onStdioTheCallJoinsTheTraceItsMetaNames() throws Exception {
        String traceId = "6bf92f3577b34a4b8d0e1f2a3c4d5e03";
        String callerSpan = "00f067aa0ba902b9";
        String line = "{\"jsonrpc\":\"2.0\",\"id\":\"s-1\",\"method\":\"tools/call\",\"params\":{\"name\":\"list_projects\","
                + "\"arguments\":{},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{},\"traceparent\":\"00-" + traceId + "-" + callerSpan + "-01\"}}}\n";
        ServerSettings config = ServerSettings.EMPTY.withServer(TestServers.server("127.0.0.1", null, null, null))
                .withProjects(List.of(TestProjects.config("handbook-en", TestProjects.sampleDirectory("en"), "lexical")));
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        // The input ends after the one line: the call is answered, then the server ends (and flushes its spans).
        io.ragsearch.server.StdioServer.run(config, io.ragsearch.config.ServerEnvironment.read(Map.of(
                        "OTEL_EXPORTER_OTLP_ENDPOINT", collector.endpoint(), "OTEL_SERVICE_NAME", "ragsearch-stdio-it")),
                new java.io.ByteArrayInputStream(line.getBytes(StandardCharsets.UTF_8)), out);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("handbook-en"), out.toString(StandardCharsets.UTF_8));

        List<ReceivedSpan> spans = collector.awaitSpans("the stdio call of trace " + traceId, ARRIVAL,
                all -> has(all, traceId, "tools/call list_projects"));
        ReceivedSpan tool = OtelCollector.named(spans, traceId, "tools/call list_projects").orElseThrow();
        assertEquals(callerSpan, tool.parentSpanId());
        assertEquals("ragsearch-stdio-it", tool.service());
        assertEquals("pipe", tool.attributes().get("network.transport"));
        assertEquals("s-1", tool.attributes().get("jsonrpc.request.id"));
        assertEquals("2026-07-28", tool.attributes().get("mcp.protocol.version"));
    }

    private static boolean has(List<ReceivedSpan> spans, String traceId, String... names) {
        Predicate<String> present = name -> OtelCollector.named(spans, traceId, name).isPresent();
        return List.of(names).stream().allMatch(present);
    }

    private static String legacyCall(int id, String params, Map<String, String> extra) throws Exception {
        Map<String, String> headers = new LinkedHashMap<>(TestServers.JSON_HEADERS);
        headers.put("MCP-Protocol-Version", "2025-11-25");
        headers.putAll(extra);
        String body = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":" + params + "}";
        RawHttp.Response r = RawHttp.exchange(app.mcpPort(), "POST", "/mcp", headers, body.getBytes(StandardCharsets.UTF_8));
        assertEquals(200, r.status(), r.body());
        return r.body();
    }

    /** A 2026-07-28 call as the specification shapes it, with a traceparent in {@code _meta}. */
    private static String modernCall(int id, String params, String metaTraceparent, Map<String, String> extra) throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{" + params
                + ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{},"
                + "\"traceparent\":\"" + metaTraceparent + "\"}}}";
        Map<String, String> headers = new LinkedHashMap<>(TestServers.JSON_HEADERS);
        headers.put("MCP-Protocol-Version", "2026-07-28");
        headers.put("Mcp-Method", "tools/call");
        headers.put("Mcp-Name", "search");
        headers.putAll(extra);
        RawHttp.Response r = RawHttp.exchange(app.mcpPort(), "POST", "/mcp", headers, body.getBytes(StandardCharsets.UTF_8));
        assertEquals(200, r.status(), r.body());
        return r.body();
    }
}
