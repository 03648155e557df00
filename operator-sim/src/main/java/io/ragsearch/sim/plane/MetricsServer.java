package io.ragsearch.sim.plane;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real metrics-server ({@code sigs.k8s.io/metrics-server}, built from Go modules by
 * {@code scripts/metrics-server-build.sh}, cached by its inputs) beside a {@link ControlPlane}:
 * it scrapes every Node's kubelet endpoint (our node agent's {@code /metrics/resource}, at the
 * Node's InternalIP and the port its status names, a self-signed certificate:
 * {@code --kubelet-insecure-tls}) and serves the resource metrics API, registered as the
 * {@code v1beta1.metrics.k8s.io} APIService — what the autoscaler and {@code kubectl top} read.
 *
 * <p>The API server reaches it through the aggregation layer (the plane's front-proxy client
 * certificate); as nothing routes a ClusterIP here, its Service is an ExternalName naming
 * 127.0.0.1, which the aggregator dials at the APIService's port. Loopback only. It stops with
 * {@link #close()}, or with this JVM (parent-death signal).
 */
public final class MetricsServer implements AutoCloseable {
    static final String SCRIPT = "scripts/metrics-server-build.sh";
    static final String ENV = "RAGSEARCH_METRICS_SERVER_BIN";
    static final String API_SERVICE = "v1beta1.metrics.k8s.io";
    /** metrics-server's own floor; each sample spans this window, so a CPU rate needs two scrapes this far apart. */
    static final Duration RESOLUTION = Duration.ofSeconds(10);
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

    private final Process process;
    private final int port;
    private final Path log;
    private final ControlPlane plane;

    private MetricsServer(Process process, int port, Path log, ControlPlane plane) {
        this.process = process;
        this.port = port;
        this.log = log;
        this.plane = plane;
    }

    /** The binary: {@code $RAGSEARCH_METRICS_SERVER_BIN}, or what the build script makes (built when missing). */
    static Path binary(PrintStream progress) {
        String given = System.getenv(ENV);
        if (given != null && !given.isBlank()) {
            return Path.of(given);
        }
        Path root = ControlPlane.projectRoot();
        TestplaneBinary.requireGo(root, System.getenv().getOrDefault("PATH", ""));
        progress.println("metrics-server: " + SCRIPT + " (builds once from Go modules, then cached)");
        return TestplaneBinary.buildWith(root.resolve(SCRIPT));
    }

    /** Starts metrics-server for {@code plane}, registers its APIService and waits until the API server serves it. */
    public static MetricsServer start(ControlPlane plane, PrintStream progress) {
        Path bin = binary(progress);
        Path dir = plane.stateDirectory().resolve("metrics-server");
        try {
            Files.createDirectories(dir);
            int port = freePort();
            Path kubeconfig = plane.kubeconfigFile();
            List<String> command = new ArrayList<>();
            // dies with this JVM however it ends (the signal follows the thread that started it: the caller's)
            TestplaneBinary.onPath("setpriv").ifPresent(s -> command.addAll(List.of(s.toString(), "--pdeathsig", "KILL")));
            command.addAll(List.of(bin.toString(),
                    "--kubeconfig=" + kubeconfig, "--authentication-kubeconfig=" + kubeconfig, "--authorization-kubeconfig=" + kubeconfig,
                    "--bind-address=127.0.0.1", "--secure-port=" + port, "--cert-dir=" + dir.resolve("certs"),
                    "--kubelet-insecure-tls", "--kubelet-preferred-address-types=InternalIP", "--kubelet-use-node-status-port",
                    "--metric-resolution=" + RESOLUTION.toSeconds() + "s", "--kubelet-request-timeout=5s"));
            Path log = dir.resolve("metrics-server.log");
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            p.getOutputStream().close();
            MetricsServer server = new MetricsServer(p, port, log, plane);
            try (KubernetesClient admin = plane.adminClient()) {
                server.register(admin);
                server.awaitAvailable(admin);
            } catch (RuntimeException e) {
                server.close();
                throw e;
            }
            progress.println("metrics-server: 127.0.0.1:" + port + " serves " + API_SERVICE + " (log " + log + ")");
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void register(KubernetesClient admin) {
        admin.services().inNamespace("kube-system").resource(new ServiceBuilder()
                .withNewMetadata().withName("metrics-server").withNamespace("kube-system").endMetadata()
                .withNewSpec().withType("ExternalName").withExternalName("127.0.0.1")
                .addNewPort().withName("https").withPort(port).withProtocol("TCP").endPort()
                .endSpec().build()).forceConflicts().serverSideApply();
        GenericKubernetesResource api = new GenericKubernetesResource();
        api.setApiVersion("apiregistration.k8s.io/v1");
        api.setKind("APIService");
        api.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(API_SERVICE).build());
        // its serving certificate is the self-signed one metrics-server makes in --cert-dir: nothing to pin it to
        api.setAdditionalProperty("spec", Map.of("group", "metrics.k8s.io", "version", "v1beta1",
                "groupPriorityMinimum", 100, "versionPriority", 100, "insecureSkipTLSVerify", true,
                "service", Map.of("namespace", "kube-system", "name", "metrics-server", "port", port)));
        admin.resource(api).forceConflicts().serverSideApply();
    }

    private void awaitAvailable(KubernetesClient admin) {
        Instant deadline = Instant.now().plus(START_TIMEOUT);
        String last = "no status yet";
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new ControlPlaneUnavailable("metrics-server exited (" + process.exitValue() + "): " + tail());
            }
            GenericKubernetesResource api = admin.genericKubernetesResources("apiregistration.k8s.io/v1", "APIService")
                    .withName(API_SERVICE).get();
            last = api == null ? "APIService missing" : Serialization.asJson(api.getAdditionalProperties().get("status"));
            if (last.contains("\"type\":\"Available\",") && last.contains("\"status\":\"True\"")) {
                return;
            }
            try {
                TimeUnit.MILLISECONDS.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + API_SERVICE, e);
            }
        }
        throw new ControlPlaneUnavailable(API_SERVICE + " not Available within " + START_TIMEOUT.toSeconds() + " s: " + last
                + "; metrics-server log: " + tail());
    }

    private String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    public int port() {
        return port;
    }

    public Path log() {
        return log;
    }

    /**
     * Unregisters the APIService, then SIGTERM and SIGKILL after 10 s. The APIService goes first:
     * an aggregated API that no longer answers fails the namespace controller's discovery, and
     * every namespace deleted on the plane afterwards would stay Terminating.
     */
    @Override
    public void close() {
        try (KubernetesClient admin = plane.adminClient()) {
            admin.genericKubernetesResources("apiregistration.k8s.io/v1", "APIService").withName(API_SERVICE).delete();
            admin.services().inNamespace("kube-system").withName("metrics-server").delete();
        } catch (RuntimeException e) {
            // the plane may be gone already (the JVM is ending): nothing left to unregister from
            System.err.println("metrics-server: could not unregister " + API_SERVICE + ": " + e.getMessage());
        }
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
