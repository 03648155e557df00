package io.ragsearch.operator.real;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real Kubernetes control plane (etcd, kube-apiserver, kube-controller-manager) for the tests,
 * built from Go modules by {@code scripts/testplane-build.sh} (once; cached by its inputs) and
 * started once per test JVM with {@code testplane up}. Each test takes its own namespace.
 *
 * <p>The plane stops at JVM exit (a shutdown hook), and also when the JVM dies without running
 * it: {@code up} watches its stdin, which only this JVM holds, and its children get SIGKILL from
 * the kernel when {@code up} goes. Everything listens on 127.0.0.1 only.
 */
public final class ControlPlane {
    private static final Duration START_TIMEOUT = Duration.ofMinutes(6);
    private static ControlPlane instance;

    private final Process process;
    private final Path dir;
    private final String kubeconfig;
    private final String server;
    private final double startupSeconds;
    private final AtomicInteger namespaces = new AtomicInteger();

    private ControlPlane(Process process, Path dir, String server, double startupSeconds) throws IOException {
        this.process = process;
        this.dir = dir;
        this.server = server;
        this.startupSeconds = startupSeconds;
        this.kubeconfig = Files.readString(dir.resolve("kubeconfig"));
    }

    /** The control plane of this JVM, built if missing and started on first use. */
    public static synchronized ControlPlane get() {
        if (instance == null) {
            instance = start();
        }
        return instance;
    }

    /** Where the checkout is: the operator module runs its tests with the module as working directory. */
    static Path projectRoot() {
        Path here = Path.of("").toAbsolutePath();
        for (Path p = here; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("scripts/testplane-build.sh"))) {
                return p;
            }
        }
        throw new IllegalStateException("scripts/testplane-build.sh not found above " + here);
    }

    /** The binary: $RAGSEARCH_TESTPLANE_BIN, or what the build script prints (building it when missing). */
    static Path binary() {
        String given = System.getenv("RAGSEARCH_TESTPLANE_BIN");
        if (given != null && !given.isBlank()) {
            return Path.of(given);
        }
        return buildWith(projectRoot().resolve("scripts/testplane-build.sh"));
    }

    /** Runs a cached-build script (it builds only when its inputs changed) and returns the path it prints last. */
    static Path buildWith(Path script) {
        try {
            Process build = new ProcessBuilder("bash", script.toString())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            build.getOutputStream().close();
            String out = new String(build.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (build.waitFor() != 0 || out.isEmpty()) {
                throw new IllegalStateException(script + " failed (exit " + build.exitValue() + ")");
            }
            return Path.of(out.lines().reduce((a, b) -> b).orElseThrow());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static ControlPlane start() {
        Path bin = binary();
        try {
            Path dir = Files.createTempDirectory("ragsearch-testplane-");
            Process p = new ProcessBuilder(bin.toString(), "up", "--dir", dir.toString(), "--stop-on-stdin-eof")
                    .redirectError(dir.resolve("up.log").toFile())
                    .start();
            // stdin stays open: its end (this JVM gone, however) tells "up" to stop
            CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = r.readLine()) != null) {
                        if (line.startsWith("ready ")) {
                            return line;
                        }
                    }
                    return null;
                } catch (IOException e) {
                    return null;
                }
            });
            String line;
            try {
                line = ready.get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            } catch (Exception e) {
                line = null;
            }
            if (line == null) {
                stop(p);
                throw new IllegalStateException("the control plane did not start: " + tail(dir.resolve("up.log"))
                        + " (logs in " + dir.resolve("logs") + ")");
            }
            double seconds = Double.parseDouble(line.replaceAll(".*\\(([0-9.]+)s\\)\\s*$", "$1"));
            String server = line.split(" ")[1];
            ControlPlane plane = new ControlPlane(p, dir, server, seconds);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                stop(p);
                if (!p.isAlive()) {
                    deleteTree(dir);
                }
            }, "testplane-down"));
            System.out.printf("testplane: %s up in %.1fs (%s)%n", server, seconds, dir);
            return plane;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Ends stdin (up stops its children, last started first), then waits; kills what remains. */
    static void stop(Process p) {
        try {
            p.getOutputStream().close();
        } catch (IOException ignored) {
            // already closed
        }
        try {
            if (!p.waitFor(40, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The state directory (etcd data, keys, logs) of a plane that stopped. */
    static void deleteTree(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // best effort at JVM exit
        }
    }

    private static String tail(Path log) {
        try {
            var lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    /** A client with the admin certificate (system:masters: RBAC lets it do anything). */
    public KubernetesClient adminClient() {
        return new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(kubeconfig)).build();
    }

    /** The operator's generated RagSearch CRD, applied (server-side) and waited on until the API server serves it. */
    public void applyRagSearchCrd(KubernetesClient admin) {
        try (java.io.InputStream in = ControlPlane.class.getResourceAsStream("/META-INF/fabric8/ragsearches.ragsearch.io-v1.yml")) {
            CustomResourceDefinition crd = Serialization.unmarshal(in, CustomResourceDefinition.class);
            admin.apiextensions().v1().customResourceDefinitions().resource(crd).serverSideApply();
            admin.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName())
                    .waitUntilCondition(c -> c != null && c.getStatus() != null && c.getStatus().getConditions().stream()
                            .anyMatch(x -> "Established".equals(x.getType()) && "True".equals(x.getStatus())), 60, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A namespace of its own for one test, created with the admin client. */
    public String namespace(String hint) {
        String base = hint.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]+", "-").replaceAll("^-+|-+$", "");
        String name = (base.isEmpty() ? "t" : base.substring(0, Math.min(base.length(), 50))) + "-" + namespaces.incrementAndGet();
        try (KubernetesClient c = adminClient()) {
            c.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
        }
        return name;
    }

    public String server() {
        return server;
    }

    public Path kubeconfigFile() {
        return dir.resolve("kubeconfig");
    }

    public double startupSeconds() {
        return startupSeconds;
    }

    public boolean running() {
        return process.isAlive();
    }
}
