package io.ragsearch.operator.playground;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.ragsearch.operator.reconcile.OperatorRuntime;
import io.ragsearch.operator.simulator.NodeAgent;
import io.ragsearch.operator.simulator.PodSimulator;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;

/**
 * fabric8's mock API server (CRUD mode) in this JVM and the pod simulator: our node agent plus
 * stand-ins for the Deployment controller and the garbage collector, which the mock lacks.
 * Nothing to build, nothing outside this JVM but the pods' processes.
 */
final class StandInCluster implements PlaygroundCluster {
    private final KubernetesMockServer api;
    private final KubernetesClient client;
    private final PodSimulator simulator;
    private final Path workDir;

    private StandInCluster(KubernetesMockServer api, KubernetesClient client, PodSimulator simulator, Path workDir) {
        this.api = api;
        this.client = client;
        this.simulator = simulator;
        this.workDir = workDir;
    }

    static StandInCluster start(Playground.Options options) throws IOException {
        KubernetesMockServer api = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(), false);
        api.init(InetAddress.getLoopbackAddress(), 0);
        KubernetesClient client = api.createClient();
        installCrd(client);
        NodeAgent.Settings sim = NodeAgent.Settings.of(options.serverJar(), options.workDir());
        PodSimulator simulator = new PodSimulator(client, options.serverImage() == null ? sim : sim.withServerImage(options.serverImage()));
        return new StandInCluster(api, client, simulator, options.workDir());
    }

    private static void installCrd(KubernetesClient client) throws IOException {
        try (InputStream in = StandInCluster.class.getResourceAsStream("/META-INF/fabric8/ragsearches.ragsearch.io-v1.yml")) {
            if (in == null) {
                throw new IOException("the RagSearch CRD is not on the class path");
            }
            CustomResourceDefinition crd = client.apiextensions().v1().customResourceDefinitions().load(in).item();
            client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
        }
    }

    @Override
    public KubernetesClient client() {
        return client;
    }

    /** The mock has no server-side apply. */
    @Override
    public OperatorRuntime.Apply apply() {
        return OperatorRuntime.Apply.PLAIN;
    }

    @Override
    public String describe() {
        return """
                  API server  embedded stand-in (fabric8's mock API server, CRUD mode) at %s
                              — not a Kubernetes cluster: no scheduler, kubelet or garbage collector
                  pods        real ragsearch-server processes started by the pod simulator, each on its
                              own loopback address (127.0.0.N); memory limits %s
                              run from the %s
                """.formatted(client.getMasterUrl(), simulator.memoryLimits(), simulator.runtime());
    }

    @Override
    public String logs() {
        return workDir.resolve("pods").toString();
    }

    @Override
    public void startPods() {
        simulator.start();
    }

    @Override
    public long runningProcesses() {
        return simulator.runningProcesses();
    }

    @Override
    public List<ProcessHandle> processes() {
        return simulator.processes();
    }

    /** The pods first (the simulator's controllers with them), then the operator, then the API server. */
    @Override
    public String stop(OperatorRuntime operator) {
        simulator.close();
        operator.close();
        client.close();
        api.destroy();
        return "the operator and the API server";
    }
}
