package io.ragsearch.sim.node;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.ragsearch.sim.cluster.RealClusterExtension;
import io.ragsearch.sim.cluster.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The node agent's duties on plain Deployments, on the real control plane (its Deployment and
 * ReplicaSet controllers make the pods): a failing liveness probe restarts, a memory limit kills,
 * and a pod runs the server from the agent's copy of the jar even where its own mounts hide where
 * that copy lies (here: under /tmp, the pod's /tmp an emptyDir, as for a checkout cloned under /tmp).
 */
@ExtendWith(RealClusterExtension.class)
class NodeAgentPodsIT {

    @Test
    void aPodWhoseTmpIsAnEmptyDirRunsTheServerThoughItsJarLiesUnderTmp(TestCluster cluster) {
        assertTrue(cluster.nodeWorkDir().startsWith("/tmp"), "the agent's copy of the jar lies under /tmp: " + cluster.nodeWorkDir());
        Deployment d = deployment(cluster.namespace(), "sample", null, null, Map.of());
        var spec = d.getSpec().getTemplate().getSpec();
        spec.getContainers().get(0).setReadinessProbe(new io.fabric8.kubernetes.api.model.ProbeBuilder().withNewHttpGet()
                .withPath("/readyz").withPort(new IntOrString("admin")).endHttpGet().withPeriodSeconds(1).build());
        spec.getContainers().get(0).setVolumeMounts(List.of(new io.fabric8.kubernetes.api.model.VolumeMountBuilder()
                .withName("tmp").withMountPath("/tmp").build()));
        spec.setVolumes(List.of(new io.fabric8.kubernetes.api.model.VolumeBuilder().withName("tmp").withNewEmptyDir().endEmptyDir().build()));
        cluster.admin().apps().deployments().inNamespace(cluster.namespace()).resource(d).create();
        Pod pod = await("the pod ready or restarted").atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(200))
                .until(() -> pod(cluster), p -> p != null && status(p) != null
                        && (Boolean.TRUE.equals(status(p).getReady()) || status(p).getRestartCount() > 0));
        assertEquals(0, status(pod).getRestartCount(), "the server started (no \"Unable to access jarfile\"): " + status(pod));
        assertTrue(status(pod).getReady());
        assertEquals("Running", pod.getStatus().getPhase());
        assertEquals(RealClusterExtension.NODE, pod.getSpec().getNodeName());
        assertEquals(pod.getStatus().getPodIP(), pod.getStatus().getPodIPs().get(0).getIp());
    }

    @Test
    void aFailingLivenessProbeRestartsTheContainerAndSaysWhy(TestCluster cluster) {
        cluster.admin().apps().deployments().inNamespace(cluster.namespace())
                .resource(deployment(cluster.namespace(), "sample", null, "/no-such-path", Map.of())).create();
        Pod pod = await("a restart").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).until(() -> pod(cluster),
                p -> p != null && status(p) != null && status(p).getRestartCount() >= 1);
        ContainerStatus cs = status(pod);
        assertTrue(cs.getLastState().getTerminated().getMessage().contains("liveness probe failed 2 times (/no-such-path)"),
                cs.getLastState().getTerminated().getMessage());
        assertTrue(pod.getStatus().getPodIP().startsWith("127.0."), pod.getStatus().getPodIP());
    }

    @Test
    void aProcessAboveItsMemoryLimitIsReportedOomKilled(TestCluster cluster) {
        // The heap may grow past the limit, so the kernel, not the JVM, stops it.
        cluster.admin().apps().deployments().inNamespace(cluster.namespace()).resource(deployment(cluster.namespace(), "sample", "150Mi", null,
                Map.of("JAVA_TOOL_OPTIONS", "-Xmx1g"))).create();
        if (!cluster.agent().memoryLimitsEnforced()) {
            assertTrue(cluster.agent().memoryLimits().startsWith("NOT enforced: "), cluster.agent().memoryLimits());
            return;
        }
        Pod pod = await("the container's last state terminated").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                .until(() -> pod(cluster), p -> p != null && status(p) != null && status(p).getLastState() != null
                        && status(p).getLastState().getTerminated() != null);
        assertEquals("OOMKilled", status(pod).getLastState().getTerminated().getReason());
        assertEquals(137, status(pod).getLastState().getTerminated().getExitCode());
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

    static Pod pod(TestCluster cluster) {
        List<Pod> pods = cluster.admin().pods().inNamespace(cluster.namespace()).list().getItems();
        return pods.isEmpty() ? null : pods.get(0);
    }

    static ContainerStatus status(Pod p) {
        return p.getStatus() == null || p.getStatus().getContainerStatuses() == null || p.getStatus().getContainerStatuses().isEmpty()
                ? null : p.getStatus().getContainerStatuses().get(0);
    }
}
