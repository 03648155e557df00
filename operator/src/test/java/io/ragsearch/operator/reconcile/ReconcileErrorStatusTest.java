package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.ragsearch.operator.model.RagSearch;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The error-status handler under JOSDK: the API server refuses the Deployment twice (a quota, an
 * admission webhook), the reconcile throws, and the status says so until a retry goes through.
 */
class ReconcileErrorStatusTest extends MockOperatorTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void aRefusedWriteShowsInTheStatusUntilARetryGoesThrough() {
        String ns = "refused";
        server.expect().post().withPath("/apis/apps/v1/namespaces/" + ns + "/deployments")
                .andReturn(403, new StatusBuilder().withStatus("Failure").withReason("Forbidden").withCode(403)
                        .withMessage("deployments \"rules\" is forbidden: exceeded quota: pods").build())
                .times(2);
        client.resource(MockCluster.ragSearch(client, ns, "rules", "1500Mi", "2")).create();

        RagSearch failed = await().atMost(WAIT).until(() -> get(ns, "rules"),
                r -> r.getStatus() != null && Conditions.isTrue(r.getStatus().conditions, Conditions.RECONCILE_FAILED));
        String message = condition(failed, Conditions.RECONCILE_FAILED).orElseThrow().getMessage();
        assertTrue(message.startsWith("the reconcile failed: deployment: KubernetesClientException"), "names the dependent: " + message);
        assertTrue(message.contains("exceeded quota: pods") && message.contains("retried with back-off"), message);
        assertNull(deployment(ns, "rules"));

        RagSearch through = await().atMost(WAIT).until(() -> get(ns, "rules"),
                r -> condition(r, Conditions.RECONCILE_FAILED).isEmpty() && condition(r, Conditions.INVALID_SPEC).isPresent());
        assertTrue(deployment(ns, "rules") != null, "the third attempt made the Deployment");
        assertEquals("False", condition(through, Conditions.INVALID_SPEC).orElseThrow().getStatus());
    }

    private static Optional<Condition> condition(RagSearch r, String type) {
        return Conditions.find(r.getStatus() == null ? null : r.getStatus().conditions, type);
    }
}
