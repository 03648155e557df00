package io.ragsearch.sim.plane;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * metrics-server leaves the shared plane as it found it. An APIService whose server has gone fails
 * the namespace controller's discovery, and every namespace deleted afterwards stays Terminating:
 * in CI that made a later test class's cleanup time out after 120 s.
 */
class MetricsServerIT {
    static final String API_SERVICE = "v1beta1.metrics.k8s.io";

    @Test
    void closingUnregistersTheApiServiceSoNamespacesCanStillBeDeleted() {
        ControlPlane plane = ControlPlane.get();
        try (KubernetesClient admin = plane.adminClient()) {
            try (MetricsServer metrics = MetricsServer.start(plane, System.out)) {
                assertNotNull(apiService(admin), API_SERVICE + " registered while metrics-server runs");
            }
            assertNull(apiService(admin), API_SERVICE + " still registered after close");
            String ns = plane.namespace("after-metrics");
            admin.namespaces().withName(ns).delete();
            // the namespace controller removes it only when discovery of every API group succeeds
            admin.namespaces().withName(ns).waitUntilCondition(Objects::isNull, 90, TimeUnit.SECONDS);
        }
    }

    static GenericKubernetesResource apiService(KubernetesClient admin) {
        return admin.genericKubernetesResources("apiregistration.k8s.io/v1", "APIService").withName(API_SERVICE).get();
    }
}
