package io.ragsearch.sim.playground;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.ragsearch.operator.reconcile.OperatorRuntime;
import io.ragsearch.sim.node.NodeAgent;
import io.ragsearch.sim.plane.ControlPlane;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * A real control plane of the playground's own (etcd, kube-apiserver, kube-controller-manager,
 * built from Go modules when missing) with the RagSearch CRD applied, and our node agent as its
 * kubelet: the real Deployment and ReplicaSet controllers make the pods, the agent binds them to
 * its Node and runs them, the real garbage collector removes what a RagSearch owned. The
 * playground owns it: {@link #stop} ends everything it started.
 */
final class RealCluster {
    private static final int WIDTH = 96;
    private static final String INDENT = " ".repeat(14);

    private final ControlPlane plane;
    private final KubernetesClient client;
    private final NodeAgent agent;
    private final String gitVersion;
    private final List<String> controllers;
    private final Path workDir;

    private RealCluster(ControlPlane plane, KubernetesClient client, NodeAgent agent, String gitVersion, List<String> controllers,
                        Path workDir) {
        this.plane = plane;
        this.workDir = workDir;
        this.client = client;
        this.agent = agent;
        this.gitVersion = gitVersion;
        this.controllers = controllers;
    }

    /** Builds the plane if missing (saying so first on {@code out}), starts it, applies the CRD, prepares the node. */
    static RealCluster start(Playground.Options options, PrintStream out) {
        ControlPlane plane = ControlPlane.start(out);
        KubernetesClient client = null;
        try {
            client = plane.adminClient();
            plane.applyRagSearchCrd(client);
            String version = client.getKubernetesVersion().getGitVersion();
            NodeAgent.Settings settings = NodeAgent.Settings.of(options.serverJar(), options.workDir());
            NodeAgent agent = new NodeAgent(client, options.serverImage() == null ? settings : settings.withServerImage(options.serverImage()),
                    NodeAgent.DEFAULT_NODE);
            return new RealCluster(plane, client, agent, version, plane.controllers(), options.workDir());
        } catch (RuntimeException e) {
            // whatever failed, nothing of the plane is left running
            if (client != null) {
                client.close();
            }
            plane.close();
            throw e;
        }
    }

    /** A client the playground and the operator share (admin: the playground creates namespaces and ConfigMaps). */
    public KubernetesClient client() {
        return client;
    }

    /** As on a cluster: the API server merges, tracks field ownership and removes what the operator stopped setting. */
    public OperatorRuntime.Apply apply() {
        return OperatorRuntime.Apply.SERVER_SIDE;
    }

    /** The API server's {@code /version}, as it answered. */
    String gitVersion() {
        return gitVersion;
    }

    /** The banner's lines on the API server, its controllers, the kubelet and the pods, in the banner's columns. */
    public String describe() {
        String controllerList = controllers.isEmpty() ? "(the controller manager's command line was not readable)"
                : String.join(", ", controllers);
        return String.format(Locale.ROOT, """
                  API server  real: kube-apiserver %s at %s, with etcd (testplane, built from Go
                              modules; up in %.1f s; loopback only)
                  controllers %s
                              — kube-controller-manager; no scheduler: the node agent binds the pods
                  kubelet     ragsearch node agent, node %s: pods are real ragsearch-server processes,
                              each on its own loopback address (127.0.0.N); memory limits %s
                              run from the %s
                  operator    in this JVM with the admin credentials, writing by server-side apply
                  kubectl     kubectl --kubeconfig %s get rags,deploy,rs,pods -A
                              (a kubectl of this version: scripts/helm-build.sh builds one beside Helm)
                  services    the API server refuses loopback pod addresses in an EndpointSlice (the
                              FailedToUpdateEndpointSlices event says so); MCP below is the ready pods'
                """, gitVersion, plane.server(), plane.startupSeconds(), wrap(controllerList), agent.node(),
                agent.memoryLimits(), agent.runtime(), plane.kubeconfigFile());
    }

    /** The banner's logs line: where the pods' logs go (and the plane's). */
    public String logs() {
        return workDir.resolve("pods") + "; control plane " + plane.stateDirectory().resolve("logs") + " (removed at stop)";
    }

    /** Starts the node agent, which runs the pods. */
    public void startPods() {
        agent.start();
    }

    /** Pod processes still running. */
    public long runningProcesses() {
        return agent.runningProcesses();
    }

    /** Every process this cluster started that still runs: the pods' and the control plane's. */
    public List<ProcessHandle> processes() {
        return Stream.concat(agent.processes().stream(), plane.processes().stream()).toList();
    }

    /** The operator first (nothing reacts to the pods going), then the pods with the agent, then the plane. */
    public String stop(OperatorRuntime operator) {
        operator.close();
        agent.close();
        client.close();
        plane.close();
        return "the operator, the node agent and the control plane";
    }

    /** Comma-separated words in lines of the banner's width, continued under the value column. */
    private static String wrap(String list) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : list.split(" ")) {
            if (line.length() > 0 && INDENT.length() + line.length() + 1 + word.length() > WIDTH) {
                lines.add(line.toString());
                line.setLength(0);
            }
            line.append(line.length() > 0 ? " " : "").append(word);
        }
        lines.add(line.toString());
        return String.join("\n" + INDENT, lines);
    }
}
