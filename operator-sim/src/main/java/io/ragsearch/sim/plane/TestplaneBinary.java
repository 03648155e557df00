package io.ragsearch.sim.plane;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The testplane binary: {@code $RAGSEARCH_TESTPLANE_BIN}, or what {@code scripts/testplane-build.sh}
 * of the checkout maps its inputs to, built first when that is missing. Every way this can fail
 * says what the person should do, since the playground meets people who never ran the tests.
 */
public final class TestplaneBinary {
    static final String SCRIPT = "scripts/testplane-build.sh";
    static final String ENV = "RAGSEARCH_TESTPLANE_BIN";

    private TestplaneBinary() {
    }

    /** The binary, built when missing; before a build, {@code progress} is told why it takes long. */
    public static Path resolve(PrintStream progress) {
        return resolve(progress, System.getenv(), Path.of("").toAbsolutePath());
    }

    /** As {@link #resolve(PrintStream)}, with the environment and the working directory given (tests). */
    static Path resolve(PrintStream progress, Map<String, String> env, Path here) {
        String given = env.get(ENV);
        if (given != null && !given.isBlank()) {
            Path bin = Path.of(given);
            if (!Files.isExecutable(bin)) {
                throw new ControlPlaneUnavailable(ENV + "=" + given + " is not an executable file: unset it to build "
                        + "the control plane with " + SCRIPT + ", or set it to the path that script prints");
            }
            return bin;
        }
        Path root = ControlPlane.projectRoot(here);
        requireGo(root, env.getOrDefault("PATH", ""));
        Path script = root.resolve(SCRIPT);
        Path bin = buildWith(script, "--path");
        if (!Files.isExecutable(bin)) {
            progress.println("control plane: not built yet. The first build compiles Kubernetes " + kubeVersion(root)
                    + " (etcd, kube-apiserver, kube-controller-manager) from Go modules, once"
                    + " (6 min on 2 idle cores, about 26 on busy ones); it is cached after (" + bin.getParent() + "), and later starts take seconds.");
            progress.println("control plane: building with " + SCRIPT + " (its progress below) ...");
        }
        return buildWith(script);
    }

    /**
     * A tool binary the test command built and exported ({@code variable}, e.g. $RAGSEARCH_HELM_BIN),
     * or, without it, what the project's cached-build script prints (building it when missing).
     */
    public static Path givenOrBuilt(String variable, String script) {
        String given = System.getenv(variable);
        if (given != null && !given.isBlank()) {
            return Path.of(given);
        }
        return buildWith(ControlPlane.projectRoot().resolve(script));
    }

    /**
     * Runs a cached-build script (it builds only when its inputs changed; a build another process
     * holds the lock for is waited on and reused) and returns the path it prints last.
     */
    public static Path buildWith(Path script, String... args) {
        try {
            var command = new java.util.ArrayList<>(java.util.List.of("bash", script.toString()));
            command.addAll(java.util.List.of(args));
            Process build = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            build.getOutputStream().close();
            String out = new String(build.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (build.waitFor() != 0 || out.isEmpty()) {
                throw new ControlPlaneUnavailable(script + " failed (exit " + build.exitValue() + "; its messages are above, "
                        + "the build's log is named there): fix what it reports and run again");
            }
            return Path.of(out.lines().reduce((a, b) -> b).orElseThrow());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + script, e);
        }
    }

    /** The build script needs Go (it hashes {@code go version} into the cache key, so even a cached binary is found through it). */
    static void requireGo(Path root, String path) {
        if (onPath("go", path).isEmpty()) {
            throw new ControlPlaneUnavailable("Go is not installed (no go on PATH), and the control plane is built from "
                    + "Go modules by " + SCRIPT + ": install Go " + goVersion(root) + " or newer (the version testplane/go.mod "
                    + "names), put its bin directory on PATH and run again");
        }
    }

    static Optional<Path> onPath(String program) {
        return onPath(program, System.getenv().getOrDefault("PATH", ""));
    }

    static Optional<Path> onPath(String program, String path) {
        for (String dir : path.split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return Optional.of(Path.of(dir, program));
            }
        }
        return Optional.empty();
    }

    /** The Kubernetes version testplane/go.mod pins (what the build stamps into /version). */
    static String kubeVersion(Path root) {
        return goModField(root, "k8s.io/kubernetes").orElse("(version unknown)");
    }

    private static String goVersion(Path root) {
        return goModField(root, "go").orElse("(see testplane/go.mod)");
    }

    private static Optional<String> goModField(Path root, String first) {
        try {
            return Files.readAllLines(root.resolve("testplane/go.mod")).stream().map(String::strip)
                    .map(l -> l.split("\\s+")).filter(w -> w.length >= 2 && w[0].equals(first)).map(w -> w[1]).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
