package io.ragsearch.sim.plane;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A real Kubernetes control plane (etcd, kube-apiserver, kube-controller-manager) on this
 * machine, built from Go modules by {@code scripts/testplane-build.sh} (once; cached by its
 * inputs) and started with {@code testplane up}. Everything listens on 127.0.0.1 only.
 *
 * <p>Two ways to hold one: {@link #start} gives the caller a plane of its own, which
 * {@link #close()} stops (its state directory removed) — the playground owns one so; {@link #get()}
 * gives the tests of one JVM a shared plane, each test in its own {@link #namespace}, stopped at
 * JVM exit. Either way no process of it outlives this JVM: {@code up} watches its stdin, which only
 * this JVM holds, and its children get SIGKILL from the kernel when {@code up} goes.
 */
public final class ControlPlane implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofMinutes(6);
    private static ControlPlane shared;

    private final Process process;
    private final Path dir;
    private final String kubeconfig;
    private final String server;
    private final double startupSeconds;
    private final AtomicInteger namespaces = new AtomicInteger();
    private final AtomicBoolean closed = new AtomicBoolean();

    private ControlPlane(Process process, Path dir, String server, double startupSeconds) throws IOException {
        this.process = process;
        this.dir = dir;
        this.server = server;
        this.startupSeconds = startupSeconds;
        this.kubeconfig = Files.readString(dir.resolve("kubeconfig"));
    }

    /** The tests' control plane: one per JVM, built if missing and started on first use, stopped at JVM exit. */
    public static synchronized ControlPlane get() {
        if (shared == null) {
            ControlPlane plane = start(System.out);
            Runtime.getRuntime().addShutdownHook(new Thread(plane::close, "testplane-down"));
            shared = plane;
        }
        return shared;
    }

    /**
     * A control plane of the caller's own, built first if missing (what the build means is told to
     * {@code progress} before it begins), in a new state directory; {@link #close()} stops it.
     */
    public static ControlPlane start(PrintStream progress) {
        Path bin = TestplaneBinary.resolve(progress);
        progress.println("testplane: starting etcd, kube-apiserver and kube-controller-manager on 127.0.0.1");
        try {
            return startWith(bin, Files.createTempDirectory("ragsearch-testplane-"), progress);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Where the checkout is: Maven runs a module's tests in the module, the playground runs in the checkout. */
    public static Path projectRoot() {
        return projectRoot(Path.of("").toAbsolutePath());
    }

    static Path projectRoot(Path here) {
        for (Path p = here; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve(TestplaneBinary.SCRIPT))) {
                return p;
            }
        }
        throw new ControlPlaneUnavailable(TestplaneBinary.SCRIPT + " not found in " + here + " or any directory above it: "
                + "run this from the ragsearch checkout (the directory that holds scripts/), or set "
                + TestplaneBinary.ENV + " to a testplane binary that script built");
    }

    /** The binary, built when missing (the tests' build notes go to standard output). */
    public static Path binary() {
        return TestplaneBinary.resolve(System.out);
    }

    private static ControlPlane startWith(Path bin, Path dir, PrintStream progress) throws IOException {
        List<String> command = new ArrayList<>();
        // A session of its own: Ctrl-C at the terminal reaches the playground, which stops the
        // operator and the pods before the plane, not the plane first (the terminal signals its
        // whole process group). Without setsid the plane still stops with this JVM, through stdin.
        TestplaneBinary.onPath("setsid").ifPresent(s -> command.add(s.toString()));
        command.addAll(List.of(bin.toString(), "up", "--dir", dir.toString(), "--stop-on-stdin-eof"));
        Process p = new ProcessBuilder(command).redirectError(dir.resolve("up.log").toFile()).start();
        // stdin stays open: its end (this JVM gone, however) tells "up" to stop
        CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> readyLine(p));
        String line;
        try {
            line = ready.get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (Exception e) {
            line = null;
        }
        if (line == null) {
            stop(p);
            throw new ControlPlaneUnavailable("the control plane did not start: " + tail(dir.resolve("up.log"))
                    + " (logs in " + dir.resolve("logs") + ")");
        }
        double seconds = Double.parseDouble(line.replaceAll(".*\\(([0-9.]+)s\\)\\s*$", "$1"));
        String server = line.split(" ")[1];
        ControlPlane plane = new ControlPlane(p, dir, server, seconds);
        progress.printf(Locale.ROOT, "testplane: %s up in %.1fs (%s)%n", server, seconds, dir);
        return plane;
    }

    /** The line {@code up} prints once everything works ({@code ready <server> kubeconfig=… (4.1s)}); null if it ends first. */
    private static String readyLine(Process p) {
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

    /** A state directory (etcd data, keys, logs) of a plane that stopped. */
    public static void deleteTree(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // best effort: a temporary directory
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

    /**
     * Stops the plane (etcd, the API server and the controller manager, last started first) and
     * removes its state directory; the directory stays, for its logs, if something would not stop.
     * Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        stop(process);
        if (!process.isAlive()) {
            deleteTree(dir);
        }
    }

    /** A client with the admin certificate (system:masters: RBAC lets it do anything). */
    public KubernetesClient adminClient() {
        return new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(kubeconfig)).build();
    }

    /** The operator's generated RagSearch CRD, applied (server-side) and waited on until the API server serves it. */
    public void applyRagSearchCrd(KubernetesClient admin) {
        try (java.io.InputStream in = ControlPlane.class.getResourceAsStream("/META-INF/fabric8/ragsearches.ragsearch.io-v1.yml")) {
            if (in == null) {
                throw new IOException("the RagSearch CRD is not on the class path");
            }
            CustomResourceDefinition crd = Serialization.unmarshal(in, CustomResourceDefinition.class);
            // Forced: on a plane the tests share, Helm may have installed the same CRD first (its
            // field manager then owns .spec.versions, and an unforced apply is refused with a conflict).
            admin.apiextensions().v1().customResourceDefinitions().resource(crd).forceConflicts().serverSideApply();
            admin.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName())
                    .waitUntilCondition(ControlPlane::established, 60, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether the API server serves the CRD (its status may exist a moment before any condition does). */
    public static boolean established(CustomResourceDefinition c) {
        return c != null && c.getStatus() != null && c.getStatus().getConditions() != null && c.getStatus().getConditions().stream()
                .anyMatch(x -> "Established".equals(x.getType()) && "True".equals(x.getStatus()));
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

    /**
     * The controllers the controller manager runs, as its command line names them
     * ({@code --controllers}), without the {@code -controller} suffix; empty if that is unreadable.
     */
    public List<String> controllers() {
        return process.children()
                .map(h -> h.info().arguments().orElse(new String[0]))
                .filter(args -> args.length > 0 && "kube-controller-manager".equals(args[0]))
                .flatMap(Arrays::stream)
                .filter(a -> a.startsWith("--controllers="))
                .flatMap(a -> Arrays.stream(a.substring("--controllers=".length()).split(",")))
                .map(c -> c.replaceAll("-controller$", ""))
                .toList();
    }

    /** {@code up} and its children (etcd, the API server, the controller manager) while they run. */
    public List<ProcessHandle> processes() {
        return Stream.concat(Stream.of(process.toHandle()), process.descendants()).filter(ProcessHandle::isAlive).toList();
    }

    public String server() {
        return server;
    }

    public Path kubeconfigFile() {
        return dir.resolve("kubeconfig");
    }

    /** etcd data, certificates, {@code logs/} and the kubeconfig; removed by {@link #close()}. */
    public Path stateDirectory() {
        return dir;
    }

    public double startupSeconds() {
        return startupSeconds;
    }

    public boolean running() {
        return process.isAlive();
    }
}
