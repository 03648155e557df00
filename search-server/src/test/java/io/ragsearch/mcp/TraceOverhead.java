package io.ragsearch.mcp;

import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.search.TestProjects;
import io.ragsearch.server.SearchServerApp;
import io.ragsearch.telemetry.Conventions;
import io.ragsearch.telemetry.OtelCollector;
import io.ragsearch.telemetry.Step;
import io.ragsearch.telemetry.Telemetry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What tracing costs a search, measured: two servers in this JVM over the same project (hybrid,
 * English sample), one without OTEL_* variables (the no-op tracer) and one exporting every span
 * to a real collector on loopback; searches alternate between them in rounds, one at a time, and
 * the latency of each /mcp exchange is kept. Prints p50 and p90 of both. A figure, not a test:
 * run with the test class path (docs/telemetry.md, "What it costs").
 */
public final class TraceOverhead {

    private TraceOverhead() {
    }

    public static void main(String[] args) throws Exception {
        System.out.printf("a stage with the no-op tracer (telemetry off): %.1f ns%n", offStepNanos());
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int perRound = 25;
        Path dir = Files.createTempDirectory("trace-overhead");
        try (OtelCollector collector = OtelCollector.start(dir)) {
            ServerSettings config = ServerSettings.EMPTY.withServer(TestServers.server("127.0.0.1", 2, 32, null))
                    .withProjects(List.of(TestProjects.config("handbook-en", TestProjects.sampleDirectory("en"), "hybrid")));
            try (SearchServerApp off = SearchServerApp.start(config, Map.of());
                 SearchServerApp on = SearchServerApp.start(config, Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", collector.endpoint()))) {
                String[] queries = {"annual leave", "sick leave pay", "overtime approval", "remote work equipment", "expense receipts"};
                for (int i = 0; i < 100; i++) { // warm-up: JIT, ONNX Runtime, connection paths
                    call(off, queries[i % queries.length], i);
                    call(on, queries[i % queries.length], i);
                }
                long[] offTimes = new long[rounds * perRound];
                long[] onTimes = new long[rounds * perRound];
                int n = 0;
                for (int r = 0; r < rounds; r++) {
                    boolean offFirst = r % 2 == 0; // alternating order: neither variant always runs second
                    for (int i = 0; i < perRound; i++, n++) {
                        String q = queries[n % queries.length];
                        if (offFirst) {
                            offTimes[n] = call(off, q, n);
                            onTimes[n] = call(on, q, n);
                        } else {
                            onTimes[n] = call(on, q, n);
                            offTimes[n] = call(off, q, n);
                        }
                    }
                }
                System.out.printf("searches per variant: %d (%d rounds, alternating)%n", n, rounds);
                System.out.printf("telemetry off: p50 %.3f ms, p90 %.3f ms%n", pct(offTimes, 50), pct(offTimes, 90));
                System.out.printf("telemetry on:  p50 %.3f ms, p90 %.3f ms (spans received by the collector: %d)%n",
                        pct(onTimes, 50), pct(onTimes, 90), collector.spans().size());
            }
        }
    }

    /** What one stage costs a search when nothing is exported: the whole of the off path, per stage. */
    private static double offStepNanos() {
        int n = 20_000_000;
        for (int warm = 0; warm < 3; warm++) {
            for (int i = 0; i < n / 10; i++) {
                try (Step step = Step.start(Telemetry.OFF_TRACER, "search.lexical")) {
                    step.set(Conventions.CANDIDATES, i);
                }
            }
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            try (Step step = Step.start(Telemetry.OFF_TRACER, "search.lexical")) {
                step.set(Conventions.CANDIDATES, i);
            }
        }
        return (System.nanoTime() - t0) / (double) n;
    }

    private static long call(SearchServerApp app, String query, int id) throws Exception {
        Map<String, String> headers = new LinkedHashMap<>(TestServers.JSON_HEADERS);
        headers.put("MCP-Protocol-Version", "2025-11-25");
        String body = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"search\","
                + "\"arguments\":{\"project\":\"handbook-en\",\"query\":\"" + query + "\"}}}";
        long t0 = System.nanoTime();
        RawHttp.Response r = RawHttp.exchange(app.mcpPort(), "POST", "/mcp", headers, body.getBytes(StandardCharsets.UTF_8));
        long took = System.nanoTime() - t0;
        if (r.status() != 200 || !r.body().contains("\"isError\":false")) {
            throw new IllegalStateException("search failed: " + r.status() + " " + r.body());
        }
        return took;
    }

    private static double pct(long[] nanos, int p) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)] / 1e6;
    }
}
