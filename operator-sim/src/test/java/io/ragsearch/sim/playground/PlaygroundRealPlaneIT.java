package io.ragsearch.sim.playground;

import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.sim.cluster.ServerJar;
import io.ragsearch.sim.node.NodeAgent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.ragsearch.sim.cluster.Figures.since;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The playground as its command line starts it by default, on the real control plane: the example
 * with one replica and its handbook ConfigMap turns Ready in the live view, and what only a real
 * plane gives is there — the Pod made by a ReplicaSet the real controller made, bound to the node
 * agent's Node, on a 127.x address; the banner's gitVersion is the API server's own. After
 * {@code close()} no pod process and no process of the plane is left, and its state is gone.
 */
class PlaygroundRealPlaneIT {
    private static final Pattern READY = Pattern.compile("(?m)^  Ready\\s+True\\s");
    private static final Pattern MCP = Pattern.compile("MCP here: http://127\\.\\d+\\.\\d+\\.\\d+:8080/mcp");
    private static final Pattern PLANE_UP = Pattern.compile("testplane: \\S+ up in ([0-9.]+)s");
    private static final Pattern KUBECONFIG = Pattern.compile("kubectl --kubeconfig (\\S+)");

    @Test
    void theExampleTurnsReadyOnTheRealPlaneAndCloseLeavesNothing(@TempDir Path dir) throws Exception {
        String example = Files.readString(Path.of("../examples/ragsearch.yaml"));
        String pdb = "\n  podDisruptionBudget:\n    minAvailable: 1\n";
        assertTrue(example.contains("\n  replicas: 2\n") && example.endsWith(pdb), "the example's replicas and PDB lines");
        Path file = dir.resolve("rags.yaml");
        // one replica; its PDB goes with the second (minAvailable 1 of 1 would block every drain: InvalidSpec)
        Files.writeString(file, example.replace("\n  replicas: 2\n", "\n  replicas: 1\n").replace(pdb, "\n"));
        // the command line as a person writes it
        picocli.CommandLine cli = PlaygroundCommand.commandLine();
        cli.parseArgs("-f", file.toString(), "--docs", "handbook-docs=../examples/corpus/en", "--server-jar", ServerJar.path().toString());
        Playground.Options options = ((PlaygroundCommand) cli.getCommand()).options(dir.resolve("work"));

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        long t0 = System.nanoTime();
        Playground playground = new Playground(options, out);
        List<ProcessHandle> started;
        Path kubeconfig;
        try {
            double setup = since(t0);
            playground.start();
            String banner = text(bytes);
            assertTrue(banner.contains("API server  real: kube-apiserver v1.37.2 at https://127.0.0.1:"), banner);
            assertTrue(banner.contains("kubelet     ragsearch node agent, node " + NodeAgent.DEFAULT_NODE), banner);
            for (String controller : List.of("deployment", "replicaset", "garbage-collector", "endpointslice", "disruption")) {
                assertTrue(banner.contains(controller + ","), controller + ": " + banner);
            }
            Matcher k = KUBECONFIG.matcher(banner);
            assertTrue(k.find(), banner);
            kubeconfig = Path.of(k.group(1));
            assertTrue(Files.readString(kubeconfig).contains("server: https://127.0.0.1:"), "kubectl can use it: " + kubeconfig);
            Matcher up = PLANE_UP.matcher(banner);
            assertTrue(up.find(), banner);

            long applied = System.nanoTime();
            await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> READY.matcher(text(bytes)).find() && MCP.matcher(text(bytes)).find());
            System.out.printf("PLAYGROUND REAL: plane up in %s s; construction (plane, CRD, node) %.1f s; start → Ready in the live view %.1f s%n",
                    up.group(1), setup, since(applied));

            KubernetesClient client = playground.client();
            // the first pod (concurrency 1 until measured) rolls to the measured value: the
            // agent stops the old one, then the API server forgets it
            List<Pod> pods = await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                    .until(() -> client.pods().inNamespace("default").withLabel(Labels.LABEL_INSTANCE, "handbook").list().getItems(),
                            p -> p.size() == 1);
            Pod pod = pods.get(0);
            OwnerReference owner = pod.getMetadata().getOwnerReferences().get(0);
            assertEquals("ReplicaSet", owner.getKind());
            assertEquals(Boolean.TRUE, owner.getController());
            ReplicaSet rs = client.apps().replicaSets().inNamespace("default").withName(owner.getName()).get();
            assertNotNull(rs, owner.getName());
            assertEquals("Deployment", rs.getMetadata().getOwnerReferences().get(0).getKind());
            assertEquals("handbook", rs.getMetadata().getOwnerReferences().get(0).getName());
            assertTrue(managers(rs.getMetadata().getManagedFields()).contains("kube-controller-manager"),
                    "the real ReplicaSet controller's own write: " + managers(rs.getMetadata().getManagedFields()));
            assertTrue(managers(pod.getMetadata().getManagedFields()).contains("kube-controller-manager"),
                    "and the Pod's: " + managers(pod.getMetadata().getManagedFields()));
            assertEquals(NodeAgent.DEFAULT_NODE, pod.getSpec().getNodeName(), "bound to the node agent's Node");
            assertNotNull(client.nodes().withName(NodeAgent.DEFAULT_NODE).get(), "the Node the agent registered");
            assertTrue(pod.getStatus().getPodIP().startsWith("127."), pod.getStatus().getPodIP());
            assertTrue(text(bytes).contains("http://" + pod.getStatus().getPodIP() + ":8080/mcp"), "the live view names it");

            started = playground.processes();
            assertTrue(started.stream().anyMatch(p -> p.info().commandLine().orElse("").contains("ragsearch-server.jar")),
                    "the pod's server process: " + commandLines(started));
            assertTrue(started.stream().filter(p -> p.info().commandLine().orElse("").contains("testplane")).count() >= 4,
                    "up, etcd, kube-apiserver, kube-controller-manager: " + commandLines(started));
        } finally {
            playground.close();
            System.out.println("PLAYGROUND REAL OUTPUT\n" + text(bytes));
        }
        String all = text(bytes);
        assertTrue(all.contains("stopped: 1 server process(es), the operator, the node agent and the control plane"), all);
        List<ProcessHandle> left = started.stream().filter(ProcessHandle::isAlive).toList();
        assertEquals(List.of(), commandLines(left), "no pod process and no process of the plane is left");
        assertFalse(Files.exists(kubeconfig.getParent()), "the plane's state directory is removed: " + kubeconfig.getParent());
    }

    private static List<String> managers(List<ManagedFieldsEntry> fields) {
        return fields == null ? List.of() : fields.stream().map(ManagedFieldsEntry::getManager).toList();
    }

    private static List<String> commandLines(List<ProcessHandle> processes) {
        return processes.stream().map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList();
    }

    private static String text(ByteArrayOutputStream bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
