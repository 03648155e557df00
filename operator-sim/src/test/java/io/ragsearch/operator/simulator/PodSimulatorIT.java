package io.ragsearch.operator.simulator;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The simulator's kubelet duties on plain Deployments: a failing liveness probe restarts, a memory limit kills. */
@EnableKubernetesMockClient(crud = true)
class PodSimulatorIT {
    static KubernetesClient client;
    static PodSimulator simulator;

    @BeforeAll
    static void start() throws Exception {
        simulator = new PodSimulator(client, PodSimulator.Settings.of(ServerJar.path(), Files.createTempDirectory("sim-test")));
        simulator.start();
    }

    @AfterAll
    static void stop() {
        simulator.close();
        assertEquals(0, simulator.runningProcesses(), "every process stopped");
    }

    @Test
    void aFailingLivenessProbeRestartsTheContainerAndSaysWhy() {
        client.apps().deployments().inNamespace("live").resource(deployment("live", "sample", null, "/no-such-path", Map.of())).create();
        Pod pod = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> pod("live"),
                p -> p != null && status(p) != null && status(p).getRestartCount() >= 1);
        ContainerStatus cs = status(pod);
        assertTrue(cs.getLastState().getTerminated().getMessage().contains("liveness probe failed 2 times (/no-such-path)"),
                cs.getLastState().getTerminated().getMessage());
        assertTrue(pod.getStatus().getPodIP().startsWith("127.0."), pod.getStatus().getPodIP());
        client.apps().deployments().inNamespace("live").withName("sample").delete();
        await().atMost(Duration.ofSeconds(60)).until(() -> pod("live") == null);
    }

    @Test
    void aProcessAboveItsMemoryLimitIsReportedOomKilled() {
        // The heap may grow past the limit, so the kernel, not the JVM, stops it.
        client.apps().deployments().inNamespace("oom").resource(deployment("oom", "sample", "150Mi", null,
                Map.of("JAVA_TOOL_OPTIONS", "-Xmx1g"))).create();
        if (!simulator.memoryLimitsEnforced()) {
            assertTrue(simulator.memoryLimits().startsWith("NOT enforced: "), simulator.memoryLimits());
            return;
        }
        Pod pod = await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() -> pod("oom"),
                p -> p != null && status(p) != null && status(p).getLastState() != null && status(p).getLastState().getTerminated() != null);
        assertEquals("OOMKilled", status(pod).getLastState().getTerminated().getReason());
        assertEquals(137, status(pod).getLastState().getTerminated().getExitCode());
        client.apps().deployments().inNamespace("oom").withName("sample").delete();
        await().atMost(Duration.ofSeconds(60)).until(() -> pod("oom") == null);
    }

    /** The server on its packaged sample corpus (no config), with the given memory limit and liveness path. */
    static Deployment deployment(String ns, String name, String memory, String livenessPath, Map<String, String> env) {
        var container = new io.fabric8.kubernetes.api.model.ContainerBuilder()
                .withName("server").withImage("ragsearch/search-server:test").withArgs("serve")
                .addNewPort().withName("mcp").withContainerPort(8080).endPort()
                .addNewPort().withName("admin").withContainerPort(8081).endPort()
                .addNewEnv().withName("RAGSEARCH_BIND_ADDRESS").withValue("0.0.0.0").endEnv()
                .addNewEnv().withName("LANG").withValue("C.UTF-8").endEnv();
        env.forEach((k, v) -> container.addNewEnv().withName(k).withValue(v).endEnv());
        if (memory != null) {
            container.withNewResources().addToLimits("memory", new Quantity(memory)).endResources();
        }
        if (livenessPath != null) {
            container.withNewLivenessProbe().withNewHttpGet().withPath(livenessPath).withPort(new IntOrString("admin")).endHttpGet()
                    .withPeriodSeconds(1).withTimeoutSeconds(1).withFailureThreshold(2).endLivenessProbe();
        }
        return new DeploymentBuilder().withNewMetadata().withName(name).withNamespace(ns).endMetadata()
                .withNewSpec().withReplicas(1)
                .withNewSelector().addToMatchLabels("app", name).endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().withContainers(container.build()).withTerminationGracePeriodSeconds(5L).endSpec()
                .endTemplate().endSpec().build();
    }

    static Pod pod(String ns) {
        List<Pod> pods = client.pods().inNamespace(ns).list().getItems();
        return pods.isEmpty() ? null : pods.get(0);
    }

    static ContainerStatus status(Pod p) {
        return p.getStatus() == null || p.getStatus().getContainerStatuses() == null || p.getStatus().getContainerStatuses().isEmpty()
                ? null : p.getStatus().getContainerStatuses().get(0);
    }
}
