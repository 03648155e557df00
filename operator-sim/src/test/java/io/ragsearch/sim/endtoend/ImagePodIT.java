package io.ragsearch.sim.endtoend;

import io.modelcontextprotocol.spec.McpSchema;
import io.ragsearch.operator.reconcile.Conditions;
import io.ragsearch.sim.cluster.RealClusterExtension;
import io.ragsearch.sim.cluster.ServerJar;
import io.ragsearch.sim.cluster.TestCluster;
import io.ragsearch.sim.node.NodeAgent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pods from the server image's own file system: the operator's real Deployment (read-only root,
 * /tmp and config volumes, the sized heap), made into pods by the real control plane's
 * controllers, run by our node agent chrooted into the unpacked image as the image's user, with
 * the image's JRE — the same bytes a cluster would run. Needs the image archive (mvn -Pimages
 * builds it before these tests run). The class's node ({@link RealClusterExtension}) runs the
 * server's pods from that image.
 */
class ImagePodIT {
    /** Declared by operator-sim's pom (the search-server module's jib:buildTar output). */
    static final Path IMAGE = Path.of(System.getProperty("image.tar", "image.tar not declared"));

    @RegisterExtension
    static final RealClusterExtension CLUSTER = RealClusterExtension.withNode(s -> s.withServerImage(IMAGE));

    @BeforeAll
    static void imageBuilt() {
        assertTrue(Files.isRegularFile(IMAGE), "the server image archive is built by mvn -Pimages: " + IMAGE);
    }

    @Test
    void anImageThatCannotBeUsedFallsBackToThePlainJarAndSaysWhy(TestCluster cluster) throws Exception {
        Path missing = Files.createTempDirectory("no-image").resolve("image.tar");
        try (NodeAgent fallback = new NodeAgent(cluster.admin(), NodeAgent.Settings.of(ServerJar.path(),
                Files.createTempDirectory("ragsearch-fallback")).withServerImage(missing), "fallback-node")) {
            assertFalse(fallback.runsImage());
            assertTrue(fallback.runtime().startsWith("plain jar "), fallback.runtime());
            assertTrue(fallback.runtime().contains("image archive not found: " + missing), fallback.runtime());
        }
    }

    @Test
    void aRagSearchServesFromPodsRunningTheImagesFileSystem(TestCluster cluster) throws Exception {
        NodeAgent agent = cluster.agent();
        assertTrue(agent.runsImage(), agent.runtime());
        cluster.startOperator(Duration.ofSeconds(30));
        cluster.configMap("handbook-docs", Map.of("leave.md", """
                        # Leave policy

                        ## Article 1 (Annual leave)
                        Every employee receives twenty days of paid annual leave per calendar year.

                        ## Article 2 (Sick leave)
                        Sick leave of up to ten days needs no medical certificate.
                        """));
        cluster.create("""
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
        await("the RagSearch Ready").atMost(Duration.ofMinutes(6)).pollInterval(Duration.ofMillis(200))
                .until(() -> cluster.ragSearch("handbook"),
                        x -> x.getStatus() != null && Conditions.isTrue(x.getStatus().conditions, Conditions.READY));

        McpSchema.CallToolResult found = cluster.traffic("handbook").search("handbook-en", "how many days of paid annual leave");
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
