package io.ragsearch.sim.node;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.ragsearch.sim.cluster.ServerJar;
import io.ragsearch.sim.plane.ControlPlane;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The node agent as its own process (what a script starts beside {@code testplane up}): a plain
 * Pod meant for its node is bound, runs, turns Ready and answers on its 127.x address; a deleted
 * pod's process stops before the API server forgets the pod; SIGTERM to the agent stops every
 * pod process it started.
 */
class NodeAgentCommandIT {
    static final String NODE = "ragsearch-node-cli";

    @Test
    void runsAPodOnTheRealControlPlaneAndLeavesNothingBehind(@TempDir Path work) throws Exception {
        ControlPlane plane = ControlPlane.get();
        String ns = plane.namespace("node-cli");
        Path jar = Path.of("target/ragsearch-operator-sim.jar").toAbsolutePath();
        assertTrue(Files.isRegularFile(jar), "the shaded jar (package phase): " + jar);
        String java = ProcessHandle.current().info().command().orElse("java");
        Process agent = new ProcessBuilder(java, "-cp", jar.toString(), NodeAgentCommand.class.getName(),
                "--kubeconfig", plane.kubeconfigFile().toString(), "--server-jar", ServerJar.path().toString(),
                "--work-dir", work.toString(), "--node", NODE)
                .redirectOutput(work.resolve("agent.out").toFile()) // Process.destroy() would close a pipe before its last line is read
                .redirectError(work.resolve("agent.log").toFile()).start();
        try (KubernetesClient admin = plane.adminClient()) {
            String banner = await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                    .until(() -> Files.readString(work.resolve("agent.out")), t -> !t.isEmpty() || !agent.isAlive()).lines().findFirst().orElse(null);
            assertTrue(banner != null && banner.startsWith("node " + NODE + " ready"), banner + " / " + Files.readString(work.resolve("agent.log")));

            long created = System.nanoTime();
            admin.pods().inNamespace(ns).resource(pod(ns, "first")).create();
            Pod ready = await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(250))
                    .until(() -> admin.pods().inNamespace(ns).withName("first").get(), p -> p.getStatus() != null
                            && p.getStatus().getConditions() != null && p.getStatus().getConditions().stream()
                            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())));
            System.out.printf("NODE CLI: pod created → Ready in %.1f s on %s%n", (System.nanoTime() - created) / 1e9, ready.getStatus().getPodIP());
            assertEquals(NODE, ready.getSpec().getNodeName());
            assertEquals("Running", ready.getStatus().getPhase());
            HttpResponse<String> readyz = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://" + ready.getStatus().getPodIP() + ":8081/readyz")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, readyz.statusCode(), readyz.body());

            List<ProcessHandle> first = agent.descendants().filter(p -> p.info().commandLine().orElse("").contains("ragsearch-server.jar")).toList();
            assertEquals(1, first.size(), "one server process for the pod");
            long deleting = System.nanoTime();
            admin.pods().inNamespace(ns).withName("first").delete(); // graceful: the agent stops it, then deletes it
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
                    .until(() -> admin.pods().inNamespace(ns).withName("first").get() == null);
            assertFalse(first.get(0).isAlive(), "the process stopped before the Pod went");
            System.out.printf("NODE CLI: graceful delete → pod gone in %.1f s%n", (System.nanoTime() - deleting) / 1e9);

            admin.pods().inNamespace(ns).resource(pod(ns, "second")).create();
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(250)).until(() -> agent.descendants()
                    .anyMatch(p -> p.info().commandLine().orElse("").contains("ragsearch-server.jar")));
            List<ProcessHandle> all = agent.descendants().toList();
            agent.destroy(); // SIGTERM
            assertTrue(agent.waitFor(60, TimeUnit.SECONDS), "the agent stops on SIGTERM");
            await().atMost(Duration.ofSeconds(30)).until(() -> all.stream().noneMatch(ProcessHandle::isAlive));
            List<String> lines = Files.readAllLines(work.resolve("agent.out"));
            String last = lines.get(lines.size() - 1);
            assertTrue(last.contains("node " + NODE + " stopped: 0 pod process(es) left"), last);
        } finally {
            agent.descendants().forEach(ProcessHandle::destroyForcibly);
            agent.destroyForcibly();
        }
    }

    /** The server on its packaged sample corpus, meant for this node only. */
    static Pod pod(String ns, String name) {
        return pod(ns, name, NODE);
    }

    /** The server on its packaged sample corpus, meant for {@code node} only. */
    static Pod pod(String ns, String name, String node) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace(ns).endMetadata()
                .withNewSpec().addToNodeSelector("kubernetes.io/hostname", node).withTerminationGracePeriodSeconds(10L)
                .addNewContainer().withName("server").withImage("ragsearch/search-server:test").withArgs("serve")
                .addNewPort().withName("admin").withContainerPort(8081).endPort()
                .addNewEnv().withName("RAGSEARCH_BIND_ADDRESS").withValue("0.0.0.0").endEnv()
                .addNewEnv().withName("LANG").withValue("C.UTF-8").endEnv()
                .withNewReadinessProbe().withNewHttpGet().withPath("/readyz").withPort(new IntOrString("admin")).endHttpGet()
                .withPeriodSeconds(1).endReadinessProbe()
                .endContainer().endSpec().build();
    }
}
