package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.ragsearch.operator.model.RagSearch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** One operator per test class against fabric8's mock API server in CRUD mode, with fake pod calibrations. */
@EnableKubernetesMockClient(crud = true)
abstract class MockOperatorTest {
    /** For a test that makes the API server answer otherwise than its CRUD store would (an error, say). */
    static KubernetesMockServer server;
    static KubernetesClient client;
    static OperatorRuntime operator;
    static FakePodAdminEndpoints pods;

    @BeforeAll
    static void startOperator() throws Exception {
        pods = new FakePodAdminEndpoints();
        operator = MockCluster.startOperator(client, pods);
    }

    @AfterAll
    static void stopOperator() {
        operator.close();
        pods.close();
    }

    static Deployment deployment(String ns, String name) {
        return MockCluster.deployment(client, ns, name);
    }

    static RagSearch get(String ns, String name) {
        return MockCluster.get(client, ns, name);
    }
}
