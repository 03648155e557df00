package io.ragsearch.operator.reconcile;

import com.sun.net.httpserver.HttpServer;
import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.contract.calibration.CalibrationJson;
import io.ragsearch.operator.calibration.CalibrationClient;
import io.ragsearch.operator.calibration.HttpCalibrationClient;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Pods that exist only in the mock API server still need a /calibration to read: one real HTTP
 * server per fake pod IP, answering what the test sets (503 until then). The operator reads them
 * through the real {@link HttpCalibrationClient}; only the address is redirected.
 */
final class FakeCalibrationEndpoints implements CalibrationClient, AutoCloseable {

    private final Map<String, HttpServer> servers = new ConcurrentHashMap<>();
    private final Map<String, String> bodies = new ConcurrentHashMap<>();
    private final Map<String, String> infos = new ConcurrentHashMap<>();
    final AtomicInteger requests = new AtomicInteger();
    private final HttpCalibrationClient http = new HttpCalibrationClient();

    /** Makes the pod at {@code podIp} answer this measurement. */
    void measure(String podIp, long residentBytes, long perRunBytes, Long limitBytes, String digest) {
        String measuredAt = "2026-12-02T19:00:0" + (bodies.size() % 10) + "Z";
        bodies.put(podIp, CalibrationJson.write(new Calibration("cgroup-v2", limitBytes, residentBytes, perRunBytes, 4, 32,
                256, 1, digest, measuredAt, "minilm-pair", null, null, null, null, null)));
        server(podIp);
    }

    /** Makes the pod at {@code podIp} answer this /info (a server with a database has a "database" object in it). */
    void info(String podIp, String body) {
        infos.put(podIp, body);
        server(podIp);
    }

    @Override
    public Optional<io.ragsearch.operator.calibration.DatabaseState> database(String podIp, int adminPort) throws IOException {
        HttpServer server = servers.get(podIp);
        if (server == null) {
            throw new IOException("connection refused: " + podIp + ":" + adminPort);
        }
        return http.database("127.0.0.1", server.getAddress().getPort());
    }

    void answer(String podIp, String body) {
        bodies.put(podIp, body);
        server(podIp);
    }

    @Override
    public Optional<Calibration> fetch(String podIp, int adminPort) throws IOException {
        HttpServer server = servers.get(podIp);
        if (server == null) {
            throw new IOException("connection refused: " + podIp + ":" + adminPort);
        }
        return http.fetch("127.0.0.1", server.getAddress().getPort());
    }

    private void server(String podIp) {
        servers.computeIfAbsent(podIp, ip -> {
            try {
                HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
                s.createContext("/calibration", ex -> {
                    requests.incrementAndGet();
                    String body = bodies.get(ip);
                    byte[] bytes = (body == null ? "{\"status\":\"not measured\"}" : body).getBytes(StandardCharsets.UTF_8);
                    ex.sendResponseHeaders(body == null ? 503 : 200, bytes.length);
                    try (OutputStream out = ex.getResponseBody()) {
                        out.write(bytes);
                    }
                });
                s.createContext("/info", ex -> {
                    byte[] bytes = infos.getOrDefault(ip, "{\"version\":\"test\"}").getBytes(StandardCharsets.UTF_8);
                    ex.sendResponseHeaders(200, bytes.length);
                    try (OutputStream out = ex.getResponseBody()) {
                        out.write(bytes);
                    }
                });
                s.start();
                return s;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    @Override
    public void close() {
        servers.values().forEach(s -> s.stop(0));
    }
}
