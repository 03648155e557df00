package io.ragsearch.telemetry;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real OpenTelemetry Collector (tools/otelcol: its OTLP receiver and file exporter) on a
 * loopback port, for tests that send it traces: what it received is read back from the OTLP JSON
 * lines its file exporter writes. The binary is $RAGSEARCH_OTELCOL_BIN, or what
 * scripts/otelcol-build.sh builds (and caches).
 */
public final class OtelCollector implements AutoCloseable {

    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final String SCRIPT = "scripts/otelcol-build.sh";

    private final Process process;
    private final int port;
    private final Path spans;
    private final Path log;

    private OtelCollector(Process process, int port, Path spans, Path log) {
        this.process = process;
        this.port = port;
        this.spans = spans;
        this.log = log;
    }

    /** One span as the collector received it; ids in hex, attributes flattened to text. */
    public record ReceivedSpan(String service, String traceId, String spanId, String parentSpanId, String name, int kind,
                               int statusCode, java.util.Map<String, String> attributes) {
    }

    /** Starts the collector with an OTLP/HTTP receiver on a free loopback port, writing into {@code dir}. */
    public static OtelCollector start(Path dir) throws IOException, InterruptedException {
        Path binary = binary();
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        Path spans = dir.resolve("spans.jsonl");
        Path config = dir.resolve("otelcol.yaml");
        Files.writeString(config, """
                receivers:
                  otlp:
                    protocols:
                      http:
                        endpoint: 127.0.0.1:%d
                exporters:
                  file:
                    path: %s
                    flush_interval: 100ms
                service:
                  telemetry:
                    metrics:
                      level: none
                  pipelines:
                    traces:
                      receivers: [otlp]
                      exporters: [file]
                """.formatted(port, spans));
        Path log = dir.resolve("otelcol.log");
        Process p = new ProcessBuilder(binary.toString(), "--config=" + config).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        OtelCollector collector = new OtelCollector(p, port, spans, log);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!collector.accepting()) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                collector.close();
                throw new IllegalStateException("the collector's OTLP receiver did not listen on 127.0.0.1:" + port
                        + " within 60 s (alive: " + p.isAlive() + "); its log:\n" + Files.readString(log));
            }
            Thread.sleep(50);
        }
        return collector;
    }

    /** The endpoint for OTEL_EXPORTER_OTLP_ENDPOINT. */
    public String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    /** Every span received so far. */
    public List<ReceivedSpan> spans() throws IOException {
        List<ReceivedSpan> all = new ArrayList<>();
        if (!Files.exists(spans)) {
            return all;
        }
        for (String line : Files.readAllLines(spans, StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            for (JsonNode rs : JSON.readTree(line).path("resourceSpans")) {
                String service = attributes(rs.path("resource").path("attributes")).get("service.name");
                for (JsonNode ss : rs.path("scopeSpans")) {
                    for (JsonNode s : ss.path("spans")) {
                        all.add(new ReceivedSpan(service, s.path("traceId").asString(), s.path("spanId").asString(),
                                s.path("parentSpanId").asString(""), s.path("name").asString(), s.path("kind").asInt(),
                                s.path("status").path("code").asInt(0), attributes(s.path("attributes"))));
                    }
                }
            }
        }
        return all;
    }

    /** Waits until the spans received satisfy {@code done}; fails naming {@code what} and showing what did arrive. */
    public List<ReceivedSpan> awaitSpans(String what, Duration timeout, Predicate<List<ReceivedSpan>> done)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<ReceivedSpan> now = spans();
            if (done.test(now)) {
                return now;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("waited " + timeout.toSeconds() + " s for " + what + "; the collector received "
                        + now.size() + " span(s): " + now.stream().map(s -> s.name() + "@" + s.traceId()).toList()
                        + "; its log:\n" + Files.readString(log));
            }
            Thread.sleep(100);
        }
    }

    public static Optional<ReceivedSpan> named(List<ReceivedSpan> spans, String traceId, String name) {
        return spans.stream().filter(s -> s.traceId().equals(traceId) && s.name().equals(name)).findFirst();
    }

    private static java.util.Map<String, String> attributes(JsonNode list) {
        java.util.Map<String, String> out = new java.util.TreeMap<>();
        for (JsonNode a : list) {
            JsonNode v = a.path("value");
            String text = v.has("stringValue") ? v.get("stringValue").asString()
                    : v.has("intValue") ? v.get("intValue").asString()
                    : v.has("boolValue") ? v.get("boolValue").asString()
                    : v.has("doubleValue") ? v.get("doubleValue").asString() : v.toString();
            out.put(a.path("key").asString(), text);
        }
        return out;
    }

    private boolean accepting() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static Path binary() throws IOException, InterruptedException {
        String given = System.getenv("RAGSEARCH_OTELCOL_BIN");
        if (given != null && !given.isBlank()) {
            return Path.of(given);
        }
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve(SCRIPT))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException(SCRIPT + " not found above " + Path.of("").toAbsolutePath()
                    + ": run from the project, or set RAGSEARCH_OTELCOL_BIN");
        }
        Process build = new ProcessBuilder(dir.resolve(SCRIPT).toString()).directory(dir.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String path = new String(build.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (build.waitFor() != 0 || path.isEmpty()) {
            throw new IllegalStateException(SCRIPT + " failed (exit " + build.exitValue() + "): it needs Go (tools/otelcol/go.mod)");
        }
        return Path.of(path);
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
