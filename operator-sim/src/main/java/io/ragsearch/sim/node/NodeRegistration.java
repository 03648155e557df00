package io.ragsearch.sim.node;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.NodeStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The node's own objects: the Node (labels, Ready, capacity of this machine, InternalIP
 * 127.0.0.1) and its Lease in {@code kube-node-lease}, renewed at each heartbeat as a kubelet
 * renews it, so that nothing that watches nodes takes this one for gone.
 */
public final class NodeRegistration {
    public static final String LEASE_NAMESPACE = "kube-node-lease";
    static final int LEASE_SECONDS = 40;
    /** Set by the API server's admission on a new Node; the node lifecycle controller (not run) would lift it. */
    static final String NOT_READY_TAINT = "node.kubernetes.io/not-ready";

    private final KubernetesClient client;
    private final String node;
    private final Map<String, String> labels;
    private final String started = Instant.now().toString();
    /** The kubelet endpoint's port (status.daemonEndpoints.kubeletEndpoint, where metrics-server scrapes); 0: none. */
    private volatile int kubeletPort;

    NodeRegistration(KubernetesClient client, String node) {
        this.client = client;
        this.node = node;
        this.labels = Map.of("kubernetes.io/hostname", node, "kubernetes.io/os", "linux",
                "kubernetes.io/arch", arch(), "ragsearch.io/node-agent", "true");
    }

    void kubeletPort(int port) {
        this.kubeletPort = port;
    }

    Map<String, String> labels() {
        return labels;
    }

    /** Creates the Node when missing, lifts the not-ready taint, writes status and Lease. */
    void register() {
        if (client.nodes().withName(node).get() == null) {
            client.nodes().resource(new NodeBuilder().withNewMetadata().withName(node).withLabels(labels).endMetadata()
                    .withNewSpec().endSpec().build()).create();
        }
        client.nodes().withName(node).edit(n -> {
            if (n.getSpec().getTaints() != null) {
                n.getSpec().setTaints(new ArrayList<>(n.getSpec().getTaints().stream()
                        .filter(t -> !NOT_READY_TAINT.equals(t.getKey())).toList()));
            }
            return n;
        });
        heartbeat();
    }

    /** The Ready condition's heartbeat and the Lease's renewal. */
    void heartbeat() {
        NodeStatus status = status(Instant.now().toString());
        client.nodes().withName(node).editStatus(n -> {
            n.setStatus(status);
            return n;
        });
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        Lease lease = client.leases().inNamespace(LEASE_NAMESPACE).withName(node).get();
        if (lease == null) {
            client.leases().inNamespace(LEASE_NAMESPACE).resource(new LeaseBuilder()
                    .withNewMetadata().withName(node).withNamespace(LEASE_NAMESPACE).endMetadata()
                    .withNewSpec().withHolderIdentity(node).withLeaseDurationSeconds(LEASE_SECONDS).withRenewTime(now).endSpec()
                    .build()).create();
        } else {
            client.leases().inNamespace(LEASE_NAMESPACE).withName(node).edit(l -> {
                l.getSpec().setRenewTime(now);
                return l;
            });
        }
    }

    /** The node's allocatable memory in bytes (all of this machine's: nothing is reserved). */
    static long allocatableMemoryBytes() {
        return machineMemoryKiB() * 1024;
    }

    /** The node's allocatable CPU in millicores. */
    static long allocatableCpuMillis() {
        return Runtime.getRuntime().availableProcessors() * 1000L;
    }

    private NodeStatus status(String now) {
        Map<String, Quantity> capacity = Map.of(
                "cpu", new Quantity(Integer.toString(Runtime.getRuntime().availableProcessors())),
                "memory", new Quantity(Long.toString(machineMemoryKiB()) + "Ki"),
                "pods", new Quantity("110"),
                "ephemeral-storage", new Quantity("100Gi"));
        List<NodeCondition> conditions = new ArrayList<>();
        conditions.add(condition("Ready", "True", "KubeletReady", "ragsearch node agent is posting ready status", now));
        for (String pressure : List.of("MemoryPressure", "DiskPressure", "PIDPressure")) {
            conditions.add(condition(pressure, "False", "KubeletHasNo" + pressure, "no " + pressure, now));
        }
        return new NodeStatusBuilder()
                .withNewDaemonEndpoints().withNewKubeletEndpoint().withPort(kubeletPort).endKubeletEndpoint().endDaemonEndpoints()
                .withCapacity(capacity).withAllocatable(capacity)
                .withConditions(conditions)
                .addNewAddress().withType("InternalIP").withAddress("127.0.0.1").endAddress()
                .addNewAddress().withType("Hostname").withAddress(node).endAddress()
                .withNewNodeInfo().withOperatingSystem("linux").withArchitecture(arch())
                .withKubeletVersion("ragsearch-node-agent").withKubeProxyVersion("").withContainerRuntimeVersion("processes://")
                .withOsImage(System.getProperty("os.name")).withKernelVersion(System.getProperty("os.version"))
                .withMachineID("").withSystemUUID("").withBootID("").endNodeInfo()
                .build();
    }

    private NodeCondition condition(String type, String status, String reason, String message, String now) {
        return new NodeConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(message)
                .withLastHeartbeatTime(now).withLastTransitionTime(started).build();
    }

    private static String arch() {
        String a = System.getProperty("os.arch");
        return switch (a) {
            case "x86_64" -> "amd64";
            case "aarch64" -> "arm64";
            default -> a;
        };
    }

    private static long machineMemoryKiB() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            // fall through
        }
        return Runtime.getRuntime().maxMemory() / 1024;
    }
}
