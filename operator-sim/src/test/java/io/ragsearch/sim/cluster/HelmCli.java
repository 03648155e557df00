package io.ragsearch.sim.cluster;

import io.ragsearch.sim.plane.ControlPlane;
import io.ragsearch.sim.plane.TestplaneBinary;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A real Helm 4 binary (built from its Go module by {@code scripts/helm-build.sh}, cached by its
 * inputs) pointed at a control plane's kubeconfig. Helm's own cache, config and data directories
 * are a temporary directory of this JVM, so the tests never read or write the user's.
 */
public final class HelmCli {
    private static final long TIMEOUT_SECONDS = 300;

    private final Path binary;
    private final Path kubeconfig;
    private final Path home;

    private HelmCli(Path binary, Path kubeconfig, Path home) {
        this.binary = binary;
        this.kubeconfig = kubeconfig;
        this.home = home;
    }

    /** Helm against this plane (the admin kubeconfig: Helm installs cluster-wide RBAC and the CRD). */
    public static HelmCli against(ControlPlane plane) {
        try {
            return new HelmCli(binary(), plane.kubeconfigFile(), Files.createTempDirectory("ragsearch-helm-"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Helm without a cluster: template, lint, package, push and pull only. */
    public static HelmCli offline() {
        try {
            return new HelmCli(binary(), null, Files.createTempDirectory("ragsearch-helm-"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A top-level field of a Chart.yaml (or of `helm show chart`), unquoted. */
    public static String chartField(String yaml, String key) {
        return yaml.lines().filter(l -> l.startsWith(key + ":")).map(l -> l.substring(key.length() + 1).strip())
                .map(v -> v.length() > 1 && (v.startsWith("\"") || v.startsWith("'")) ? v.substring(1, v.length() - 1) : v).findFirst()
                .orElseThrow(() -> new IllegalStateException("no " + key + " in\n" + yaml));
    }

    /** What one helm command did. */
    public record Result(int exit, String out, String err) {
        public boolean ok() {
            return exit == 0;
        }
    }

    /** Runs helm; fails with Helm's own message when it exits non-zero. */
    public String run(String... args) {
        Result r = tryRun(args);
        if (!r.ok()) {
            throw new IllegalStateException("helm " + String.join(" ", args) + " exited " + r.exit() + ": " + r.err().strip());
        }
        return r.out();
    }

    /** Runs helm and returns its exit code and output, whatever they are. */
    public Result tryRun(String... args) {
        List<String> command = new ArrayList<>(List.of(binary.toString()));
        if (kubeconfig != null) {
            command.addAll(List.of("--kubeconfig", kubeconfig.toString()));
        }
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("HELM_CACHE_HOME", home.resolve("cache").toString());
        pb.environment().put("HELM_CONFIG_HOME", home.resolve("config").toString());
        pb.environment().put("HELM_DATA_HOME", home.resolve("data").toString());
        try {
            Process p = pb.start();
            p.getOutputStream().close();
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
            String out = read(p.getInputStream());
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("helm " + String.join(" ", args) + " did not finish in " + TIMEOUT_SECONDS + "s");
            }
            return new Result(p.exitValue(), out, err.join());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String read(java.io.InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The kubectl of the plane's version that the same build makes beside Helm. */
    public static Path kubectl() {
        return binary().resolveSibling("kubectl");
    }

    /** The binary: $RAGSEARCH_HELM_BIN, or what the build script prints (building it when missing). */
    public static Path binary() {
        return TestplaneBinary.givenOrBuilt("RAGSEARCH_HELM_BIN", "scripts/helm-build.sh");
    }
}
