package io.ragsearch.operator.simulator;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.ragsearch.operator.naming.PodLayout;
import io.ragsearch.operator.podadmin.HttpPodAdminClient;
import io.ragsearch.operator.reconcile.MockCluster;
import io.ragsearch.operator.reconcile.OperatorRuntime;
import io.ragsearch.operator.reconcile.RagSearchReconciler;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Set;

/**
 * The loop the end-to-end tests on the mock API server share: the CRD installed, the node agent
 * running real server processes for the pods, the operator, and a client that searches through
 * the ready pods as the Service would. Closed in the reverse order, whatever failed.
 */
final class MockLoop implements AutoCloseable {
    final PodSimulator simulator;
    final OperatorRuntime operator;
    final SearchTraffic traffic;

    private MockLoop(PodSimulator simulator, OperatorRuntime operator, SearchTraffic traffic) {
        this.simulator = simulator;
        this.operator = operator;
        this.traffic = traffic;
    }

    /** @param settledResync how often a settled RagSearch is reconciled again (a test that waits on one shortens it) */
    static MockLoop start(KubernetesClient client, String namespace, String name, Duration settledResync) throws Exception {
        MockCluster.quietMockServer();
        MockCluster.installCrd(client);
        PodSimulator simulator = new PodSimulator(client,
                NodeAgent.Settings.of(ServerJar.path(), Files.createTempDirectory("ragsearch-" + namespace)));
        OperatorRuntime operator = null;
        try {
            simulator.start();
            operator = new OperatorRuntime(client, new HttpPodAdminClient(),
                    new RagSearchReconciler.Settings(Duration.ofSeconds(1), settledResync, PodLayout.ADMIN_PORT), Set.of());
            operator.start();
            return new MockLoop(simulator, operator, new SearchTraffic(client, namespace, name));
        } catch (Exception | Error e) {
            if (operator != null) {
                operator.close();
            }
            simulator.close();
            throw e;
        }
    }

    @Override
    public void close() throws InterruptedException {
        try {
            traffic.close();
        } finally {
            try {
                simulator.close();
            } finally {
                operator.close();
            }
        }
    }
}
