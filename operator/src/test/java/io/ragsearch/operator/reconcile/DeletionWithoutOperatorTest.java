package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.reconcile.OwnerGarbageCollector;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Deleting a RagSearch must not need the operator (uninstalled, CRD kept): no finalizer, the
 * children go by their owner references. An earlier version's finalizer is removed when the
 * operator next sees the resource.
 */
@EnableKubernetesMockClient(crud = true)
class DeletionWithoutOperatorTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    static KubernetesClient client;

    @Test
    void aRagSearchDeletedWhileTheOperatorIsStoppedGoesAtOnceAndItsChildrenFollow() throws Exception {
        String ns = "orphaned";
        // Control: this mock keeps an object with a finalizer after delete, so the assertions below can fail.
        client.configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata().withName("control")
                .withNamespace(ns).withFinalizers("example.io/hold").endMetadata().build()).create();
        client.configMaps().inNamespace(ns).withName("control").delete();
        ConfigMap held = client.configMaps().inNamespace(ns).withName("control").get();
        assertNotNull(held, "the mock honours finalizers");
        assertNotNull(held.getMetadata().getDeletionTimestamp());

        RagSearch legacy = MockCluster.ragSearch(client, ns, "rules", "1500Mi", "2");
        legacy.getMetadata().setFinalizers(new java.util.ArrayList<>(List.of(RagSearchReconciler.LEGACY_FINALIZER)));
        client.resource(legacy).create();
        FakePodAdminEndpoints pods = new FakePodAdminEndpoints();
        Deployment running;
        try (OperatorRuntime operator = MockCluster.startOperator(client, pods)) {
            running = await().atMost(WAIT).until(() -> MockCluster.deployment(client, ns, "rules"), d -> d != null);
            await().atMost(WAIT).until(() -> {
                List<String> f = MockCluster.get(client, ns, "rules").getMetadata().getFinalizers();
                return f == null || f.isEmpty();
            });
        } finally {
            pods.close();
        }
        RagSearch owner = MockCluster.get(client, ns, "rules");
        assertEquals(owner.getMetadata().getUid(), running.getMetadata().getOwnerReferences().get(0).getUid(),
                "the Deployment is owned: the garbage collector will take it");

        OwnerGarbageCollector gc = new OwnerGarbageCollector(client);
        assertEquals(0, gc.collect(), "nothing is collected while its owner exists");
        assertNotNull(MockCluster.deployment(client, ns, "rules"));

        // The operator is stopped (uninstalled, CRD kept). Deleting the RagSearch must not hang.
        client.resource(owner).delete();
        await().atMost(Duration.ofSeconds(5)).until(() -> MockCluster.get(client, ns, "rules") == null);
        assertTrue(gc.collect() >= 3, "Deployment, Service and ConfigMap collected");
        assertEquals(null, MockCluster.deployment(client, ns, "rules"));
        assertEquals(null, client.services().inNamespace(ns).withName("rules").get());
        assertNotNull(client.configMaps().inNamespace(ns).withName("rules-docs").get(), "the user's own ConfigMap stays");
    }
}
