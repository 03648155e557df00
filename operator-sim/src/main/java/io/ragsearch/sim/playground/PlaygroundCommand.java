package io.ragsearch.sim.playground;

import io.ragsearch.operator.file.RagSearchFileException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The whole loop locally: a real control plane with our node agent as its kubelet, the operator,
 * the file applied on every save. The entry point
 * of ragsearch-operator-sim.jar (a development tool, not in the operator's jar).
 */
@Command(name = "ragsearch-playground", mixinStandardHelpOptions = true, versionProvider = io.ragsearch.operator.cli.OperatorVersion.class,
        description = "Run a Kubernetes control plane, the operator and our node agent; "
                + "apply the file and re-apply it on save.")
public final class PlaygroundCommand implements Runnable {

    @Option(names = {"-f", "--file"}, required = true, description = "RagSearch YAML file (watched)")
    Path file;

    @Option(names = "--server-jar", defaultValue = "search-server/target/ragsearch-server.jar",
            description = "The search server jar the pods run (default ${DEFAULT-VALUE})")
    Path serverJar;

    @Option(names = "--docs", paramLabel = "CONFIGMAP=DIR",
            description = "Create a ConfigMap of the files in DIR (repeatable), e.g. handbook-docs=examples/corpus/en")
    Map<String, Path> docs = new LinkedHashMap<>();

    @Option(names = "--image", defaultValue = "search-server/target/image.tar",
            description = "Server image archive (scripts/build/images.sh writes it): pods run from its file system "
                    + "when this machine can (root, chroot); otherwise, or when the file is absent, from the server jar. "
                    + "Default: ${DEFAULT-VALUE}")
    Path image;

    @Option(names = "--work-dir", description = "Where pods' files and logs go (default: a new temporary directory)")
    Path workDir;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new PlaygroundCommand());
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            // A person reads this: the message, not a stack trace.
            commandLine.getErr().println("ragsearch-playground: " + ex.getMessage());
            return ex instanceof UsageProblem || ex instanceof RagSearchFileException ? 2 : 1;
        });
        return cli;
    }

    @Override
    public void run() {
        // The live view is the output: libraries' request logs would bury it (warnings still show).
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.setProperty("org.slf4j.simpleLogger.log.io.ragsearch.sim.node", "info");
        if (!Files.isRegularFile(file)) {
            throw new UsageProblem(file + ": no such file");
        }
        if (!Files.isRegularFile(serverJar)) {
            throw new UsageProblem("server jar not found: " + serverJar
                    + " (build it with: mvn -q -B -DskipTests package, or pass --server-jar)");
        }
        docs.forEach((name, dir) -> {
            if (!Files.isDirectory(dir)) {
                throw new UsageProblem("--docs " + name + "=" + dir + ": not a directory");
            }
        });
        try {
            Path work = workDir != null ? Files.createDirectories(workDir) : Files.createTempDirectory("ragsearch-playground");
            Playground playground;
            try {
                playground = new Playground(options(work), System.out);
            } catch (RuntimeException e) {
                if (workDir == null) {
                    removeIfEmpty(work); // a run that never started leaves no empty directory behind
                }
                throw e;
            }
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                playground.close();
                stopped.countDown();
            }, "playground-shutdown"));
            playground.start();
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.io.IOException e) {
            throw new IllegalStateException("playground: " + e.getMessage(), e);
        }
    }

    private static void removeIfEmpty(Path dir) {
        try {
            Files.deleteIfExists(dir);
        } catch (java.io.IOException e) {
            // not empty (the node agent had begun) or not ours to remove: it stays
        }
    }

    /** What the command line asks for, with pods' files under {@code work}. */
    Playground.Options options(Path work) {
        return new Playground.Options(file, serverJar, Files.isRegularFile(image) ? image : null, docs, work, Duration.ofSeconds(1));
    }

    /** Bad input from the person at the terminal (exit code 2). */
    static final class UsageProblem extends RuntimeException {
        UsageProblem(String message) {
            super(message);
        }
    }
}
