package io.ragsearch.sim.cluster;

import io.ragsearch.sim.plane.TestplaneBinary;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * A real OCI registry on loopback: the CNCF distribution registry ({@code registry serve}), built
 * from its Go module by {@code scripts/registry-build.sh} and cached by its inputs. Storage is a
 * temporary directory; plain HTTP on 127.0.0.1 (Helm's {@code --plain-http}). Stopped by its
 * process handle on {@link #close()}.
 */
public final class OciRegistry implements AutoCloseable {
    /** A first start reads no state; on a loaded machine it still answers within seconds. */
    private static final Duration STARTUP = Duration.ofSeconds(60);

    private final Process process;
    private final int port;
    private final Path log;

    private OciRegistry(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** Starts the registry on a free loopback port and waits until its API answers. */
    public static OciRegistry start() throws IOException {
        Path dir = Files.createTempDirectory("ragsearch-registry-");
        int port = freePort();
        Path config = dir.resolve("config.yml");
        Files.writeString(config, """
                version: 0.1
                log:
                  level: warn
                  accesslog:
                    disabled: true
                storage:
                  filesystem:
                    rootdirectory: %s
                http:
                  addr: 127.0.0.1:%d
                """.formatted(dir.resolve("storage"), port));
        Path log = dir.resolve("registry.log");
        ProcessBuilder pb = new ProcessBuilder(binary().toString(), "serve", config.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        // The registry traces with OpenTelemetry: nothing may leave loopback, so no exporter.
        pb.environment().put("OTEL_TRACES_EXPORTER", "none");
        pb.environment().put("OTEL_SDK_DISABLED", "true");
        Process p = pb.start();
        p.getOutputStream().close();
        OciRegistry registry = new OciRegistry(p, port, log);
        try {
            await("the registry's /v2/ answering on 127.0.0.1:" + port).atMost(STARTUP).pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        if (!p.isAlive()) {
                            throw new IllegalStateException("the registry exited " + p.exitValue() + ": " + Files.readString(log));
                        }
                        return registry.status("/v2/") == 200;
                    });
        } catch (RuntimeException e) {
            registry.close();
            throw e;
        }
        return registry;
    }

    /** host:port, as an oci:// reference names it. */
    public String address() {
        return "127.0.0.1:" + port;
    }

    /** What the registry said (warnings and errors), for a failure message. */
    public String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** The registry's answer to GET {@code /v2/<repository>/tags/list} (the distribution API), or what went wrong. */
    public String tags(String repository) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://" + address() + "/v2/" + repository + "/tags/list"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            return "(no answer: " + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(interrupted)";
        }
    }

    public int status(String path) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://" + address() + path))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** $RAGSEARCH_REGISTRY_BIN, or what the build script prints (building it when missing). */
    public static Path binary() {
        return TestplaneBinary.givenOrBuilt("RAGSEARCH_REGISTRY_BIN", "scripts/registry-build.sh");
    }
}
