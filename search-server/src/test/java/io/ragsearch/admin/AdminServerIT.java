package io.ragsearch.admin;

import io.ragsearch.metrics.Metrics;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class AdminServerIT {

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> get(int port, String path, String method) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void probesFollowTheStartupPhasesAndDependencyChecks() throws Exception {
        HealthState health = new HealthState();
        Metrics metrics = new Metrics();
        metrics.counter("demo_total", "a demo counter", "kind=\"x\"").inc();
        metrics.histogram("demo_seconds", "a demo histogram", Metrics.LATENCY_BUCKETS).observe(0.02);
        AtomicReference<Optional<String>> database = new AtomicReference<>(Optional.empty());
        health.addReadinessCheck(database::get);
        AtomicReference<Optional<String>> calibration = new AtomicReference<>(Optional.empty());
        try (AdminServer admin = new AdminServer(new AdminSettings("127.0.0.1", 0), health, metrics, () -> Map.of("version", "test"),
                () -> calibration.get(), null)) {
            admin.start();
            int port = admin.port();
            health.phase("indexing project rules");

            assertEquals(200, get(port, "/livez", "GET").statusCode(), "alive while starting");
            HttpResponse<String> startup = get(port, "/startupz", "GET");
            assertEquals(503, startup.statusCode());
            assertTrue(startup.body().contains("indexing project rules"), startup.body());
            HttpResponse<String> notReady = get(port, "/readyz", "GET");
            assertEquals(503, notReady.statusCode());
            assertTrue(notReady.body().contains("\"reason\":\"starting: indexing project rules\""), notReady.body());

            assertEquals(503, get(port, "/calibration", "GET").statusCode(), "503 until measured");
            calibration.set(Optional.of("{\"method\":\"rss\",\"perRunBytes\":5}"));
            HttpResponse<String> measured = get(port, "/calibration", "GET");
            assertEquals(200, measured.statusCode());
            assertEquals("{\"method\":\"rss\",\"perRunBytes\":5}\n", measured.body(), "served as the server rendered it");
            health.markStarted();
            assertEquals(200, get(port, "/startupz", "GET").statusCode());
            assertEquals(200, get(port, "/readyz", "GET").statusCode());

            database.set(Optional.of("database unreachable: connection refused"));
            HttpResponse<String> degraded = get(port, "/readyz", "GET");
            assertEquals(503, degraded.statusCode());
            assertTrue(degraded.body().contains("database unreachable"), degraded.body());
            assertEquals(200, get(port, "/livez", "GET").statusCode(), "liveness never checks dependencies");

            String text = get(port, "/metrics", "GET").body();
            assertTrue(text.contains("demo_total{kind=\"x\"} 1"), text);
            assertTrue(text.contains("demo_seconds_bucket{le=\"0.025\"} 1") && text.contains("demo_seconds_count 1"), text);
            assertEquals("{\"version\":\"test\"}\n", get(port, "/info", "GET").body());
            assertEquals(405, get(port, "/livez", "POST").statusCode());
            for (String near : new String[] {"/infox", "/livez/", "/metrics2", "/"}) {
                assertEquals(404, get(port, near, "GET").statusCode(), near + ": paths match exactly");
            }
            HttpResponse<String> any = get(port, "/livez", "GET");
            assertTrue(any.headers().firstValue("Server").isEmpty(), "no Server header");
        }
    }
}
