package io.ragsearch.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.server.SearchServerApp;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The rerank lane holds on every revision /mcp serves: the tools are defined once and
 * {@link ToolCatalog} picks the lane, so a flood of reranking searches sent as 2026-07-28 meets
 * the same lane (one rerank permit: one lane thread, four queue places) as one sent as
 * 2025-11-25. Only the lane answers "every rerank slot is taken" / "no rerank slot freed", and
 * only the lane counts {@code ragsearch_rerank_lane_busy_total}; a search of the project without
 * a reranker, sent while the flood runs, is answered.
 */
class RerankLaneRevisionsIT {

    private static final int CALLERS = 40;
    private static SearchServerApp app;

    @BeforeAll
    static void start() throws Exception {
        app = SearchServerApp.start(TestServers.rerankedBesidePlain(), Map.of());
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-07-28", "2025-11-25", "2025-06-18"})
    void reranksGoThroughTheLaneOnEveryRevision(String revision) throws Exception {
        long busyBefore = laneBusy();
        CountDownLatch go = new CountDownLatch(1);
        List<String> answers = new CopyOnWriteArrayList<>();
        List<Thread> callers = new ArrayList<>();
        for (int i = 0; i < CALLERS; i++) {
            int id = i + 1;
            Thread t = new Thread(() -> {
                try {
                    go.await();
                    answers.add(search(revision, id, "reranked"));
                } catch (Exception e) {
                    answers.add("exception " + e);
                }
            });
            t.start();
            callers.add(t);
        }
        go.countDown();
        String plain = search(revision, 1_000, "plain");
        for (Thread t : callers) {
            t.join();
        }

        assertTrue(ok(plain), "the project without a reranker was answered during the flood: " + plain);
        long laneAnswers = answers.stream().filter(RerankLaneRevisionsIT::laneBusy).count();
        long okAnswers = answers.stream().filter(RerankLaneRevisionsIT::ok).count();
        assertEquals(CALLERS, answers.size());
        assertTrue(answers.stream().allMatch(a -> ok(a) || a.contains("busy, retry")), "only answers or busy, retry: " + answers);
        assertTrue(okAnswers >= 1, "some reranking searches ran: " + answers);
        assertTrue(laneAnswers >= 1, "the flood met the rerank lane on " + revision + ": " + answers);
        assertEquals(laneAnswers, laneBusy() - busyBefore, "every lane refusal counted by the lane, on " + revision);
    }

    private static boolean ok(String answer) {
        return answer.startsWith("200 ") && !answer.contains("\"isError\":true") && answer.contains("\"structuredContent\"");
    }

    private static boolean laneBusy(String answer) {
        return answer.startsWith("200 ") && (answer.contains("busy, retry: every rerank slot is taken and the rerank queue is full")
                || answer.contains("busy, retry: no rerank slot freed within"));
    }

    /** One search, shaped as the revision asks; "status body". */
    private static String search(String revision, int id, String project) throws Exception {
        String arguments = "\"name\":\"search\",\"arguments\":{\"project\":\"" + project + "\",\"query\":\"annual leave days overtime\"}";
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Host", "127.0.0.1:" + app.mcpPort());
        headers.put("Content-Type", "application/json");
        headers.put("Accept", "application/json, text/event-stream");
        headers.put("MCP-Protocol-Version", revision);
        String body;
        if (revision.equals(McpRequestRules.MODERN_VERSION)) {
            body = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{" + arguments
                    + ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                    + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
            headers.put("Mcp-Method", "tools/call");
            headers.put("Mcp-Name", "search");
        } else {
            body = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{" + arguments + "}}";
        }
        RawHttp.Response r = RawHttp.exchange(app.mcpPort(), "POST", "/mcp", headers, body.getBytes(StandardCharsets.UTF_8));
        return r.status() + " " + r.body();
    }

    private static long laneBusy() throws Exception {
        String metrics = RawHttp.exchange(app.adminPort(), "GET", "/metrics", Map.of(), new byte[0]).body();
        return metrics.lines().filter(l -> l.startsWith("ragsearch_rerank_lane_busy_total "))
                .mapToLong(l -> Long.parseLong(l.substring("ragsearch_rerank_lane_busy_total ".length()).strip()))
                .findFirst().orElse(0);
    }
}
