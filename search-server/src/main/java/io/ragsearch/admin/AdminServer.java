package io.ragsearch.admin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The admin listener: probes, /info and /metrics on their own port and their own threads
 * (the JDK's HTTP server, not Jetty's pool), so nothing here ever waits behind tool work.
 */
public final class AdminServer implements AutoCloseable {

    /** Probes are cheap and few; two threads keep one slow scrape from delaying a probe. */
    private static final int THREADS = 2;
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final HttpServer server;
    private final ExecutorService executor;

    public AdminServer(String bindAddress, int port, HealthState health, Metrics metrics,
                       Supplier<Map<String, Object>> info, Supplier<Optional<Object>> calibration) throws IOException {
        server = HttpServer.create(new InetSocketAddress(bindAddress, port), 64);
        AtomicInteger n = new AtomicInteger();
        executor = Executors.newFixedThreadPool(THREADS, r -> {
            Thread t = new Thread(r, "admin-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/livez", ex -> respond(ex, 200, "text/plain", "ok\n"));
        server.createContext("/startupz", ex -> {
            if (health.started()) {
                respond(ex, 200, "text/plain", "started\n");
            } else {
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("status", "starting");
                body.put("phase", health.startupPhase());
                health.startupFailure().ifPresent(f -> body.put("failure", f));
                respondJson(ex, 503, body);
            }
        });
        server.createContext("/readyz", ex -> {
            Optional<String> reason = health.notReadyReason();
            if (reason.isEmpty()) {
                respond(ex, 200, "text/plain", "ready\n");
            } else {
                respondJson(ex, 503, Map.of("status", "not ready", "reason", reason.get()));
            }
        });
        server.createContext("/info", ex -> respondJson(ex, 200, info.get()));
        server.createContext("/calibration", ex -> {
            Optional<Object> measured = calibration.get();
            if (measured.isPresent()) {
                respondJson(ex, 200, measured.get());
            } else {
                respondJson(ex, 503, Map.of("status", "not measured", "phase", health.startupPhase()));
            }
        });
        server.createContext("/metrics", ex -> respond(ex, 200, "text/plain; version=0.0.4", metrics.render()));
    }

    public void start() {
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private static void respondJson(HttpExchange ex, int status, Object body) throws IOException {
        respond(ex, status, "application/json", JSON.writeValueAsString(body) + "\n");
    }

    private static void respond(HttpExchange ex, int status, String type, String body) throws IOException {
        try (ex) {
            if (!ex.getRequestMethod().equals("GET") && !ex.getRequestMethod().equals("HEAD")) {
                status = 405;
                body = "method not allowed\n";
                type = "text/plain";
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", type + (type.contains("charset") ? "" : "; charset=utf-8"));
            ex.getResponseHeaders().set("Cache-Control", "no-store");
            boolean head = ex.getRequestMethod().equals("HEAD");
            ex.sendResponseHeaders(status, head ? -1 : bytes.length);
            if (!head) {
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(bytes);
                }
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
