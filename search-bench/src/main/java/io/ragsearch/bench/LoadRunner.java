package io.ragsearch.bench;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.ragsearch.metrics.ProcessMemory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Drives a server with c MCP clients at once, each sending {@code rounds} searches, while a
 * prober asks /livez every 50 ms and samples the server's RSS (its VmHWM is reset first).
 */
final class LoadRunner {

    private static final long PROBE_MILLIS = 50;

    private LoadRunner() {
    }

    static LoadCell run(ServerProcess server, String corpus, String project, String rerank, int permits, int clients, int rounds,
                        List<String> queries, long predictedPeak, int candidatesPerSearch) throws Exception {
        List<McpSyncClient> mcp = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            HttpClientStreamableHttpTransport t = HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + server.mcpPort)
                    .endpoint("/mcp").build();
            McpSyncClient c = McpClient.sync(t).requestTimeout(Duration.ofMinutes(10)).build();
            c.initialize();
            mcp.add(c);
        }
        Path status = Path.of("/proc/" + server.pid() + "/status");
        try {
            Files.writeString(Path.of("/proc/" + server.pid() + "/clear_refs"), "5");
        } catch (Exception e) {
            // not permitted: the sampler alone gives the peak
        }
        AtomicBoolean probing = new AtomicBoolean(true);
        AtomicLong sampledPeak = new AtomicLong(ProcessMemory.statusField(status, "VmRSS:"));
        List<Double> livez = Collections.synchronizedList(new ArrayList<>());
        Thread prober = new Thread(() -> {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
            HttpRequest req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.adminPort + "/livez")).build();
            while (probing.get()) {
                long t0 = System.nanoTime();
                try {
                    http.send(req, HttpResponse.BodyHandlers.discarding());
                    livez.add((System.nanoTime() - t0) / 1e6);
                } catch (Exception e) {
                    livez.add(30_000.0);
                }
                sampledPeak.accumulateAndGet(ProcessMemory.statusField(status, "VmRSS:"), Math::max);
                try {
                    Thread.sleep(PROBE_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "bench-prober");
        prober.start();

        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Double> latencies = Collections.synchronizedList(new ArrayList<>());
        int[] failed = {0};
        int[] busy = {0};
        long t0 = System.nanoTime();
        List<Future<?>> work = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            McpSyncClient c = mcp.get(i);
            int offset = i;
            work.add(pool.submit(() -> {
                for (int r = 0; r < rounds; r++) {
                    String q = queries.get((offset + r * clients) % queries.size());
                    long s0 = System.nanoTime();
                    CallToolResult res = c.callTool(new CallToolRequest("search", Map.of("project", project, "query", q)));
                    latencies.add((System.nanoTime() - s0) / 1e6);
                    if (Boolean.TRUE.equals(res.isError())) {
                        String text = ((TextContent) res.content().get(0)).text();
                        synchronized (failed) {
                            if (text.startsWith("busy, retry")) {
                                busy[0]++;
                            } else {
                                failed[0]++;
                            }
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : work) {
            f.get();
        }
        double total = (System.nanoTime() - t0) / 1e9;
        probing.set(false);
        prober.join();
        pool.shutdown();
        mcp.forEach(McpSyncClient::closeGracefully);
        long peak = Math.max(sampledPeak.get(), ProcessMemory.statusField(status, "VmHWM:"));
        int searches = clients * rounds;
        return new LoadCell(corpus, rerank, permits, clients, searches, failed[0], busy[0], total, percentile(latencies, 50),
                percentile(latencies, 95), percentile(livez, 50), percentile(livez, 99), percentile(livez, 100), livez.size(),
                peak, predictedPeak, (searches - failed[0] - busy[0]) * (double) candidatesPerSearch / total);
    }

    static double percentile(List<Double> values, double p) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int i = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
    }
}
