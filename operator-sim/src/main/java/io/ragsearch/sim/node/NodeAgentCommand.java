package io.ragsearch.sim.node;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Our kubelet as a process of its own, for a control plane outside this JVM (the testplane that
 * {@code testplane up} starts, the one {@code scripts/test/kube-e2e.sh} brings up): registers the node
 * and runs the pods bound to it until SIGTERM, then stops every pod process it started.
 *
 * <pre>java -cp operator-sim/target/ragsearch-operator-sim.jar io.ragsearch.sim.node.NodeAgentCommand --kubeconfig FILE</pre>
 */
@Command(name = "ragsearch-node", mixinStandardHelpOptions = true,
        description = "Run our node agent (kubelet) against the API server of a kubeconfig: pods run as local processes on 127.x addresses.")
public final class NodeAgentCommand implements Runnable {

    @Option(names = "--kubeconfig", required = true, description = "kubeconfig of the API server (admin: the node registers itself and binds pods)")
    Path kubeconfig;

    @Option(names = "--server-jar", defaultValue = "search-server/target/ragsearch-server.jar",
            description = "The search server jar pods run when not from the image (default ${DEFAULT-VALUE})")
    Path serverJar;

    @Option(names = "--image", description = "Server image archive: pods run from its file system where this machine can (root, chroot)")
    Path image;

    @Option(names = "--program", paramLabel = "IMAGE=JAR",
            description = "Containers of this image repository (any tag; REPOSITORY:TAG: that tag only, before its repository) run this jar instead of the server (repeatable), "
                    + "e.g. ragsearch/operator=operator/target/ragsearch-operator.jar for the chart's operator pods")
    java.util.Map<String, Path> programs = new java.util.LinkedHashMap<>();

    @Option(names = "--work-dir", description = "Where pods' files and logs go (default: a new temporary directory)")
    Path workDir;

    @Option(names = "--node", defaultValue = NodeAgent.DEFAULT_NODE, description = "The Node's name (default ${DEFAULT-VALUE})")
    String node;

    public static void main(String[] args) {
        CommandLine cli = new CommandLine(new NodeAgentCommand());
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            commandLine.getErr().println("ragsearch-node: " + ex.getMessage());
            return 1;
        });
        System.exit(cli.execute(args));
    }

    @Override
    public void run() {
        if (!Files.isRegularFile(kubeconfig)) {
            throw new IllegalArgumentException(kubeconfig + ": no such file");
        }
        try {
            Path work = workDir != null ? Files.createDirectories(workDir) : Files.createTempDirectory("ragsearch-node");
            NodeAgent.Settings settings = NodeAgent.Settings.of(serverJar, work);
            if (image != null) {
                settings = settings.withServerImage(image);
            }
            for (var program : programs.entrySet()) {
                settings = settings.withProgram(program.getKey(), program.getValue().toAbsolutePath());
            }
            KubernetesClient client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(kubeconfig))).build();
            NodeAgent agent = new NodeAgent(client, settings, node);
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                agent.close();
                client.close();
                System.out.println("node " + node + " stopped: " + agent.runningProcesses() + " pod process(es) left");
                stopped.countDown();
            }, "node-shutdown"));
            agent.start();
            System.out.println("node " + node + " ready: pods from the " + agent.runtime() + "; memory limits " + agent.memoryLimits()
                    + "; CPU limits " + agent.cpuLimits() + "; pod logs in " + work.resolve("pods"));
            stopped.await();
        } catch (IOException e) {
            throw new IllegalStateException(e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
