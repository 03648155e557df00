package io.ragsearch.sim.endtoend;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.ragsearch.operator.file.RagSearchFile;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.naming.PodLayout;
import io.ragsearch.operator.podadmin.HttpPodAdminClient;
import io.ragsearch.operator.reconcile.Conditions;
import io.ragsearch.operator.reconcile.OperatorRuntime;
import io.ragsearch.operator.reconcile.RagSearchReconciler;
import io.ragsearch.sim.cluster.RealClusterExtension;
import io.ragsearch.sim.cluster.SearchTraffic;
import io.ragsearch.sim.cluster.ServerJar;
import io.ragsearch.sim.node.NodeAgent;
import io.ragsearch.sim.plane.ControlPlane;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pods from the server image's own file system: the operator's real Deployment (read-only root,
 * /tmp and config volumes, the sized heap), made into pods by the real control plane's
 * controllers, run by our node agent chrooted into the unpacked image as the image's user, with
 * the image's JRE — the same bytes a cluster would run. Needs the image archive (mvn -Pimages
 * builds it before these tests run). Its node agent is its own (the image's), not
 * {@link RealClusterExtension}'s plain-jar one.
 */
class ImagePodIT {
    /** Declared by operator-sim's pom (the search-server module's jib:buildTar output). */
    static final Path IMAGE = Path.of(System.getProperty("image.tar", "image.tar not declared"));

    static ControlPlane plane;
    static KubernetesClient client;
    static String ns;
    static NodeAgent agent;
    static OperatorRuntime operator;
    static SearchTraffic traffic;

    @BeforeAll
    static void start() throws Exception {
        assertTrue(Files.isRegularFile(IMAGE), "the server image archive is built by mvn -Pimages: " + IMAGE);
        plane = ControlPlane.get();
        client = plane.adminClient();
        plane.applyRagSearchCrd(client);
        ns = plane.namespace("image");
        agent = new NodeAgent(client, NodeAgent.Settings.of(ServerJar.path(),
                Files.createTempDirectory("ragsearch-image-pods")).withServerImage(IMAGE), NodeAgent.DEFAULT_NODE);
        agent.start();
        operator = new OperatorRuntime(client, new HttpPodAdminClient(),
                new RagSearchReconciler.Settings(Duration.ofSeconds(1), Duration.ofSeconds(30), PodLayout.ADMIN_PORT), Set.of(ns),
                null, OperatorRuntime.Apply.SERVER_SIDE);
        operator.start();
        traffic = new SearchTraffic(client, ns, "handbook");
    }

    @AfterAll
    static void stop() throws Exception {
        if (traffic != null) {
            traffic.close();
        }
        if (operator != null) {
            operator.close();
        }
        if (agent != null) {
            client.namespaces().withName(ns).delete();
            await("namespace " + ns + " deleted").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                    .until(() -> client.namespaces().withName(ns).get() == null);
            agent.close();
            assertEquals(0, agent.runningProcesses(), "every process stopped");
        }
        if (client != null) {
            client.close();
        }
    }

    @Test
    void anImageThatCannotBeUsedFallsBackToThePlainJarAndSaysWhy() throws Exception {
        Path missing = Files.createTempDirectory("no-image").resolve("image.tar");
        try (NodeAgent fallback = new NodeAgent(client, NodeAgent.Settings.of(ServerJar.path(),
                Files.createTempDirectory("ragsearch-fallback")).withServerImage(missing), "fallback-node")) {
            assertFalse(fallback.runsImage());
            assertTrue(fallback.runtime().startsWith("plain jar "), fallback.runtime());
            assertTrue(fallback.runtime().contains("image archive not found: " + missing), fallback.runtime());
        }
    }

    @Test
    void aRagSearchServesFromPodsRunningTheImagesFileSystem() throws Exception {
        assertTrue(agent.runsImage(), agent.runtime());
        client.configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata().withName("handbook-docs")
                .withNamespace(ns).endMetadata().withData(Map.of("leave.md", """
                        # Leave policy

                        ## Article 1 (Annual leave)
                        Every employee receives twenty days of paid annual leave per calendar year.

                        ## Article 2 (Sick leave)
                        Sick leave of up to ten days needs no medical certificate.
                        """)).build()).create();
        RagSearch r = RagSearchFile.parse("image", """
                apiVersion: ragsearch.io/v1alpha1
                kind: RagSearch
                metadata: {name: handbook}
                spec:
                  image: ragsearch/search-server:image-it
                  replicas: 1
                  resources: {memory: 1Gi}
                  projects:
                    - name: handbook-en
                      language: en
                      retrieval: lexical
                      source: {configMap: handbook-docs}
                  startupTimeoutSeconds: 300
                """);
        r.getMetadata().setNamespace(ns);
        client.resource(r).create();
        await("the RagSearch Ready").atMost(Duration.ofMinutes(6)).pollInterval(Duration.ofMillis(200))
                .until(() -> client.resources(RagSearch.class).inNamespace(ns).withName("handbook").get(),
                        x -> x.getStatus() != null && Conditions.isTrue(x.getStatus().conditions, Conditions.READY));

        McpSchema.CallToolResult found = traffic.search("handbook-en", "how many days of paid annual leave");
        assertFalse(Boolean.TRUE.equals(found.isError()), found.toString());
        String text = ((McpSchema.TextContent) found.content().get(0)).text();
        assertTrue(text.contains("Article 1"), text);

        List<ProcessHandle> processes = agent.processes();
        assertEquals(1, processes.size(), "one pod, one server process");
        long pid = processes.get(0).pid();
        Path root = Path.of("/proc", Long.toString(pid), "root").toRealPath();
        assertTrue(root.getFileName().toString().startsWith("rootfs-"), "the process's root is the unpacked image: " + root);
        assertTrue(Files.isRegularFile(root.resolve("app/jib-classpath-file")), "Jib's layout is in that root");
        String status = Files.readString(Path.of("/proc", Long.toString(pid), "status"));
        String uid = status.lines().filter(l -> l.startsWith("Uid:")).findFirst().orElseThrow();
        assertEquals("10001", uid.split("\\s+")[1], "runs as the pod's user, not root: " + uid);
        Path exe = Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "exe"));
        assertTrue(exe.startsWith(root.resolve("usr/lib/jvm")), "the image's JRE, not this machine's: " + exe);
    }
}
