package io.ragsearch.mcp;

import static org.awaitility.Awaitility.await;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.ragsearch.server.SearchServerApp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The field lesson: health must never wait behind tool work. Two tool threads are kept busy by
 * twelve clients sending the longest allowed hybrid searches (query embedding + BM25 over every
 * term) while /livez is polled every 50 ms; its latency is measured and asserted with a
 * generous bound. The busy test shows the bounded queue answering "busy, retry" at once.
 */
class HealthUnderLoadIT {

    private static final int CLIENTS = 12;
    private static final long LOAD_MILLIS = 6_000;

    @Test
    void livezAnswersFastWhileEveryToolThreadIsBusy() throws Exception {
        livezUnderLoad(false);
    }

    /**
     * The same on MCP 2026-07-28. The SDK's new server runs a sync tool on the Jetty request
     * thread; ours run on the tool pool on both revisions, which the saturation wait proves.
     */
    @Test
    void livezAnswersFastWhileEveryToolThreadIsBusyOnTheNewRevision() throws Exception {
        livezUnderLoad(true);
    }

    private void livezUnderLoad(boolean modern) throws Exception {
        try (SearchServerApp app = TestServers.startSample(TestServers.server("127.0.0.1", 2, 64, null))) {
            String longQuery = ("annual leave sick leave remote work overtime hotel meals mileage password laptop gifts "
                    + "confidentiality parental ").repeat(10).substring(0, 990);
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicInteger ok = new AtomicInteger();
            AtomicInteger failed = new AtomicInteger();
            ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
            List<Future<?>> load = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                load.add(clients.submit(() -> {
                    if (modern) {
                        io.modelcontextprotocol.modern.client.McpSyncClient client = ProtocolRevisionsIT.modernClient(app.mcpPort());
                        while (running.get()) {
                            var r = client.tool("search").arguments(Map.of("project", "handbook-en", "query", longQuery, "top_k", 5)).call();
                            (Boolean.TRUE.equals(r.isError()) ? failed : ok).incrementAndGet();
                        }
                        return null;
                    }
                    McpSyncClient client = TestServers.client(app.mcpPort());
                    try {
                        while (running.get()) {
                            CallToolResult r = client.callTool(new CallToolRequest("search",
                                    Map.of("project", "handbook-en", "query", longQuery, "top_k", 5)));
                            (Boolean.TRUE.equals(r.isError()) ? failed : ok).incrementAndGet();
                        }
                    } finally {
                        client.closeGracefully();
                    }
                    return null;
                }));
            }

            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            HttpRequest livez = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.adminPort() + "/livez"))
                    .timeout(Duration.ofSeconds(10)).build();
            List<Double> millis = new ArrayList<>();
            int samples = 0;
            int saturated = 0;
            // Every tool thread busy before the probe is timed: that is the load the probe must not feel.
            await().atMost(Duration.ofSeconds(30)).until(() -> app.executor().running() == 2);
            long end = System.currentTimeMillis() + LOAD_MILLIS;
            while (System.currentTimeMillis() < end) {
                if (app.executor().running() == 2) {
                    saturated++;
                }
                samples++;
                long t0 = System.nanoTime();
                HttpResponse<String> r = http.send(livez, HttpResponse.BodyHandlers.ofString());
                millis.add((System.nanoTime() - t0) / 1e6);
                assertEquals(200, r.statusCode());
                Thread.sleep(50); // the probe's sampling interval, not a wait for a condition
            }
            running.set(false);
            for (Future<?> f : load) {
                f.get();
            }
            clients.shutdown();

            Collections.sort(millis);
            double p50 = millis.get(millis.size() / 2);
            double p99 = millis.get((int) Math.ceil(millis.size() * 0.99) - 1);
            double max = millis.get(millis.size() - 1);
            System.out.printf(Locale.ROOT, "[health-under-load %s] searches ok=%d failed=%d; tool pool saturated in %d/%d samples; "
                    + "livez n=%d p50=%.1f ms p99=%.1f ms max=%.1f ms%n", modern ? "2026-07-28" : "2025-11-25", ok.get(),
                    failed.get(), saturated, samples, millis.size(), p50, p99, max);
            assertEquals(0, failed.get(), "searches failed under load");
            assertTrue(ok.get() > CLIENTS, "load ran: " + ok.get());
            assertTrue(saturated * 2 > samples, "tool threads were busy for most of the run: " + saturated + "/" + samples);
            assertTrue(max < 1_000, "livez max " + max + " ms under load");
        }
    }

    @Test
    void aFullToolQueueAnswersBusyAtOnceAndNothingElseFails() throws Exception {
        // One tool thread, one queue slot, and enough HTTP capacity that every request reaches the queue.
        try (SearchServerApp app = TestServers.startSample(TestServers.server("127.0.0.1", 1, 1, 32))) {
            int callers = 16;
            String query = "annual leave sick leave remote work overtime hotel meals ".repeat(15);
            TestServers.Tally t = TestServers.concurrentSearches(app.mcpPort(), callers, "handbook-en", query);
            int ok = t.ok();
            int busy = t.busy();
            System.out.printf(Locale.ROOT, "[busy] %d callers: ok=%d busy=%d%n", callers, ok, busy);
            assertTrue(ok >= 1, "some calls are served");
            assertTrue(busy >= 1, "a full queue refuses instead of queueing without bound");
            assertTrue(app.metrics().render().contains("ragsearch_tool_busy_rejections_total " + busy));
        }
    }
}
