package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.AggregatedOperatorException;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.RagSearchStatus;
import io.ragsearch.operator.spec.CheckedSpec;
import io.ragsearch.operator.spec.SpecCheck;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The status an unexpected exception leaves (the error-status handler's), composed without a cluster. */
class ReconcileFailedStatusTest {
    private static final Instant NOW = Instant.parse("2026-12-06T12:00:00Z");

    @Test
    void aFailureAddsItsConditionAndKeepsEverythingTheLastReconcileWrote() {
        RagSearch r = MockCluster.ragSearch("ns", "rules", "1500Mi", "2");
        r.setStatus(validStatus(r));
        var failure = new AggregatedOperatorException("Exception(s) during workflow execution.",
                Map.of("deployment", new KubernetesClientException("Failure executing: POST. Message: exceeded quota: pods.", 403, null)));

        RagSearchStatus failed = StatusComposer.failed(r, failure, false, NOW);
        var condition = Conditions.find(failed.conditions, Conditions.RECONCILE_FAILED).orElseThrow();
        assertEquals("True", condition.getStatus());
        assertEquals("UnexpectedError", condition.getReason());
        assertTrue(condition.getMessage().startsWith("the reconcile failed: deployment: KubernetesClientException: Failure executing: POST."),
                condition.getMessage());
        assertTrue(condition.getMessage().contains("exceeded quota: pods") && condition.getMessage().contains("retried with back-off"),
                condition.getMessage());
        assertEquals(r.getStatus().endpoint, failed.endpoint, "the last decision stays");
        assertEquals(r.getStatus().rerank.effective, failed.rerank.effective);
        assertEquals(Conditions.find(r.getStatus().conditions, Conditions.READY), Conditions.find(failed.conditions, Conditions.READY));
        assertEquals(List.of(), Conditions.find(r.getStatus().conditions, Conditions.RECONCILE_FAILED).stream().toList(),
                "the resource's own status is not touched");

        var last = StatusComposer.failed(r, new IllegalStateException("boom", new java.io.IOException("disk")), true, NOW);
        String said = Conditions.find(last.conditions, Conditions.RECONCILE_FAILED).orElseThrow().getMessage();
        assertTrue(said.contains("IllegalStateException: boom; IOException: disk"), said);
        assertTrue(said.contains("not retried again until the RagSearch or its pods change"), said);
    }

    @Test
    void theNextReconcileThatGoesThroughRemovesIt() {
        RagSearch r = MockCluster.ragSearch("ns", "rules", "1500Mi", "2");
        r.setStatus(StatusComposer.failed(r, new IllegalStateException("boom"), false, NOW));
        assertTrue(Conditions.isTrue(r.getStatus().conditions, Conditions.RECONCILE_FAILED));

        RagSearchStatus valid = validStatus(r);
        assertTrue(Conditions.find(valid.conditions, Conditions.RECONCILE_FAILED).isEmpty(), valid.conditions.toString());
        RagSearchStatus refused = StatusComposer.invalid(r, r.getStatus(), List.of("spec.image is required"), NOW).status();
        assertTrue(Conditions.find(refused.conditions, Conditions.RECONCILE_FAILED).isEmpty(), "a refusal went through too");
    }

    private static RagSearchStatus validStatus(RagSearch r) {
        CheckedSpec spec = SpecCheck.check(r, null).spec().orElseThrow();
        RerankPlanner.Plan plan = RerankPlanner.plan(spec, null, List.of());
        return StatusComposer.valid(r, r.getStatus(), spec, plan, 0, List.of(), List.of(), NOW).status();
    }
}
