package io.ragsearch.operator.reconcile;

import com.sun.net.httpserver.HttpServer;
import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.contract.calibration.CalibrationJson;
import io.ragsearch.contract.verification.Verification;
import io.ragsearch.contract.verification.VerificationJson;
import io.ragsearch.operator.podadmin.HttpPodAdminClient;
import io.ragsearch.operator.podadmin.PodAdminClient;

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
 * through the real {@link HttpPodAdminClient}; only the address is redirected.
 */
public final class FakePodAdminEndpoints implements PodAdminClient, AutoCloseable {

    private final Map<String, HttpServer> servers = new ConcurrentHashMap<>();
    private final Map<String, String> bodies = new ConcurrentHashMap<>();
    private final Map<String, String> infos = new ConcurrentHashMap<>();
    final AtomicInteger requests = new AtomicInteger();
    /** Per pod IP: the verification GET answers (set by the test), and the POSTs' query strings as received. */
    private final Map<String, String> verifications = new ConcurrentHashMap<>();
    final Map<String, java.util.List<String>> verificationStarts = new ConcurrentHashMap<>();
    private final HttpPodAdminClient http = new HttpPodAdminClient();

    /** Makes the pod at {@code podIp} answer this measurement. */
    void measure(String podIp, long residentBytes, long perRunBytes, Long limitBytes, String digest) {
        String measuredAt = "2026-12-02T19:00:0" + (bodies.size() % 10) + "Z";
        bodies.put(podIp, CalibrationJson.write(Calibration.measured("cgroup-v2", limitBytes, residentBytes, perRunBytes, 4, 32,
                256, 1, digest, measuredAt).withReranker("minilm-pair")));
        server(podIp);
    }

    /** Makes the pod at {@code podIp} answer this /info (a server with a database has a "database" object in it). */
    void info(String podIp, String body) {
        infos.put(podIp, body);
        server(podIp);
    }

    @Override
    public Optional<io.ragsearch.operator.podadmin.DatabaseState> database(String podIp, int adminPort) throws IOException {
        return http.database("127.0.0.1", port(podIp, adminPort));
    }

    /** The loopback port standing in for the pod's admin port; refused like a pod that is not there. */
    private int port(String podIp, int adminPort) throws IOException {
        HttpServer server = servers.get(podIp);
        if (server == null) {
            throw new IOException("connection refused: " + podIp + ":" + adminPort);
        }
        return server.getAddress().getPort();
    }

    @Override
    public Optional<io.ragsearch.operator.podadmin.EmbeddingState> embedding(String podIp, int adminPort) throws IOException {
        return http.embedding("127.0.0.1", port(podIp, adminPort));
    }

    /** Makes the pod at {@code podIp} a candidate whose run, once POSTed, answers this (running until set). */
    void verificationResult(String podIp, Verification v) {
        verifications.put(podIp, VerificationJson.write(v));
        server(podIp);
    }

    /** A pod that serves /verification, with no verdict yet. */
    void candidate(String podIp) {
        server(podIp);
    }

    @Override
    public boolean startVerification(String podIp, int adminPort, String baselineMcpUrl) throws IOException {
        HttpServer server = servers.get(podIp);
        if (server == null) {
            throw new IOException("connection refused: " + podIp + ":" + adminPort);
        }
        return http.startVerification("127.0.0.1", server.getAddress().getPort(), baselineMcpUrl);
    }

    @Override
    public Optional<Verification> verification(String podIp, int adminPort) throws IOException {
        HttpServer server = servers.get(podIp);
        if (server == null) {
            throw new IOException("connection refused: " + podIp + ":" + adminPort);
        }
        return http.verification("127.0.0.1", server.getAddress().getPort());
    }

    void answer(String podIp, String body) {
        bodies.put(podIp, body);
        server(podIp);
    }

    @Override
    public Optional<Calibration> calibration(String podIp, int adminPort) throws IOException {
        HttpServer server = servers.get(podIp);
        if (server == null) {
            throw new IOException("connection refused: " + podIp + ":" + adminPort);
        }
        return http.calibration("127.0.0.1", server.getAddress().getPort());
    }

    private static final String RUNNING = VerificationJson.write(new Verification(Verification.State.RUNNING, null, null, null,
            "2026-12-03T13:00:00Z", null, 0, 0, 0, java.util.List.of(), null));

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
                s.createContext("/verification", ex -> {
                    java.util.List<String> starts = verificationStarts.computeIfAbsent(ip, k -> new java.util.concurrent.CopyOnWriteArrayList<>());
                    int status;
                    String body;
                    if (ex.getRequestMethod().equals("POST")) {
                        starts.add(String.valueOf(ex.getRequestURI().getRawQuery()));
                        status = 202;
                        body = RUNNING;
                    } else if (starts.isEmpty()) {
                        status = 404;
                        body = "{\"error\":\"no verification has run; POST one\"}";
                    } else {
                        status = 200;
                        body = verifications.getOrDefault(ip, RUNNING);
                    }
                    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                    ex.sendResponseHeaders(status, bytes.length);
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
