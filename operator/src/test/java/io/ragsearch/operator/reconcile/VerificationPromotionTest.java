package io.ragsearch.operator.reconcile;

import static io.ragsearch.operator.reconcile.MockCluster.configHash;
import static io.ragsearch.operator.reconcile.MockCluster.env;
import static io.ragsearch.operator.reconcile.MockCluster.events;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.ragsearch.contract.Environment;
import io.ragsearch.contract.verification.Verification;
import io.ragsearch.operator.model.Gate;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.VerificationStatus;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.naming.ObjectNames;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * spec.verification under JOSDK against the mock API server: a new version comes up as a
 * candidate no Service selects, its checks are started over real HTTP with a serving pod as
 * baseline, and only a pass rolls the serving Deployment.
 */
class VerificationPromotionTest extends MockOperatorTest {
    private static final long MIB = 1024 * 1024;
    private static final Duration WAIT = Duration.ofSeconds(30);

    private static final Verification PASSED = new Verification(Verification.State.PASSED, "verify-handbook", "c", "b",
            "2026-12-03T13:00:00Z", "2026-12-03T13:00:02Z", 2, 0, 1,
            List.of(new Verification.Row("annual-leave", "search", true, "rank 1 (0.87)", "rank 2 (0.80)", "rank 1 → 2", null),
                    new Verification.Row("projects", "list_projects", true, "1 project", "1 project", null, null)), null);
    private static final Verification FAILED = new Verification(Verification.State.FAILED, "verify-handbook", "c", "b",
            "2026-12-03T13:00:00Z", "2026-12-03T13:00:02Z", 1, 1, 1,
            List.of(new Verification.Row("annual-leave", "search", false, "rank 1 (0.87)", "refused (0.87)", "rank 1 → refused",
                            "expected handbook 제1조 in the top 5, got no supporting documents"),
                    new Verification.Row("projects", "list_projects", true, "1 project", "1 project", null, null)), null);

    /** A RagSearch with verification, its first version running on one measured, ready pod, concurrency tuned. */
    private static Deployment running(String ns, String ip, Integer timeoutSeconds) {
        client.configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata().withName("checks").withNamespace(ns)
                .endMetadata().addToData("checks.yaml", "checks: []\n").build()).create();
        RagSearch r = MockCluster.ragSearch(client, ns, "rules", "2000Mi", "4");
        r.getSpec().verification = new io.ragsearch.operator.model.VerificationSpec();
        r.getSpec().verification.configMap = "checks";
        r.getSpec().verification.timeoutSeconds = timeoutSeconds;
        client.resource(r).create();
        Deployment first = await().atMost(WAIT).until(() -> deployment(ns, "rules"), x -> x != null);
        pods.measure(ip, 400 * MIB, 300 * MIB, 2000 * MIB, "sha256:aaa");
        MockCluster.readyPod(client, first, "rules-a", ip);
        // The measurement re-rolls the pods with concurrency 4: the same version, so no verification.
        Deployment tuned = await().atMost(WAIT).until(() -> deployment(ns, "rules"),
                x -> "4".equals(env(x, Environment.RERANK_CONCURRENCY)));
        assertNotEquals(configHash(first), configHash(tuned));
        assertEquals(first.getMetadata().getAnnotations().get(Labels.VERSION), tuned.getMetadata().getAnnotations().get(Labels.VERSION));
        MockCluster.readyPod(client, tuned, "rules-b", ip.replaceFirst("\\.1$", ".2"));
        RagSearch serving = await().atMost(WAIT).until(() -> get(ns, "rules"),
                x -> condition(x, Conditions.VERIFIED) != null && condition(x, Conditions.READY) != null
                        && "True".equals(condition(x, Conditions.READY).getStatus()));
        assertEquals("True", condition(serving, Conditions.VERIFIED).getStatus());
        assertEquals("Serving", condition(serving, Conditions.VERIFIED).getReason());
        assertNull(candidate(ns), "the tuning loop's re-roll needs no candidate");
        return tuned;
    }

    private static void changeGate(String ns, double threshold) {
        RagSearch edit = get(ns, "rules");
        edit.getSpec().gate = new Gate();
        edit.getSpec().gate.threshold = threshold;
        client.resource(edit).update();
    }

    @Test
    void aPassingCandidateIsPromotedAndDeleted() {
        String ns = "promote";
        Deployment serving = running(ns, "10.3.0.1", null);
        String runningConfig = client.configMaps().inNamespace(ns).withName("rules-config").get().getData().get("config.yaml");
        changeGate(ns, 0.5);

        Deployment candidate = await().atMost(WAIT).until(() -> candidate(ns), x -> x != null);
        assertEquals(1, candidate.getSpec().getReplicas());
        assertEquals(Labels.CANDIDATE_NAME, candidate.getSpec().getTemplate().getMetadata().getLabels().get(Labels.LABEL_NAME));
        assertEquals("/etc/ragsearch-checks/checks.yaml", env(candidate, Environment.VERIFY_CHECKS));
        assertTrue(client.configMaps().inNamespace(ns).withName("rules-candidate-config").get().getData().get("config.yaml")
                .contains("0.5"), "the candidate reads the new configuration");
        // The serving pods are left exactly as they run, configuration included.
        assertEquals(configHash(serving), configHash(deployment(ns, "rules")));
        assertEquals(runningConfig, client.configMaps().inNamespace(ns).withName("rules-config").get().getData().get("config.yaml"));
        Service service = client.services().inNamespace(ns).withName("rules").get();
        assertFalse(candidate.getSpec().getTemplate().getMetadata().getLabels().entrySet()
                .containsAll(service.getSpec().getSelector().entrySet()), "no Service selects the candidate");
        RagSearch verifying = await().atMost(WAIT).until(() -> get(ns, "rules"),
                x -> x.getStatus().verification != null && VerificationStatus.VERIFYING.equals(x.getStatus().verification.state));
        assertEquals("Verifying", condition(verifying, Conditions.VERIFIED).getReason());

        pods.candidate("10.3.0.9");
        MockCluster.readyPod(client, candidate, "rules-candidate-x", "10.3.0.9");
        await().atMost(WAIT).until(() -> !pods.verificationStarts.getOrDefault("10.3.0.9", List.of()).isEmpty());
        String query = pods.verificationStarts.get("10.3.0.9").get(0);
        assertTrue(query.contains("baseline=http%3A%2F%2Frules." + ns + ".svc%3A8080%2Fmcp"), "the serving Service is the baseline: " + query);
        assertFalse(query.contains("baselineAdmin"), query);
        assertEquals(ObjectNames.serviceHost("rules", ns) + ":8080", candidate.getSpec().getTemplate().getSpec().getContainers().stream()
                .flatMap(c -> c.getEnv().stream()).filter(e -> e.getName().equals(Environment.VERIFY_BASELINES)).findFirst()
                .orElseThrow().getValue(), "the candidate allows only that baseline");
        assertEquals(configHash(serving), configHash(deployment(ns, "rules")), "nothing rolls while the checks run");

        pods.verificationResult("10.3.0.9", PASSED);
        Deployment promoted = await().atMost(WAIT).until(() -> deployment(ns, "rules"), x -> !configHash(serving).equals(configHash(x)));
        assertEquals(candidate.getMetadata().getAnnotations().get(Labels.VERSION), promoted.getMetadata().getAnnotations().get(Labels.VERSION));
        assertTrue(client.configMaps().inNamespace(ns).withName("rules-config").get().getData().get("config.yaml").contains("0.5"));
        await().atMost(WAIT).until(() -> candidate(ns) == null);
        RagSearch done = await().atMost(WAIT).until(() -> get(ns, "rules"),
                x -> VerificationStatus.PROMOTED.equals(x.getStatus().verification.state));
        assertEquals("True", condition(done, Conditions.VERIFIED).getStatus());
        assertEquals(2, done.getStatus().verification.passed);
        await().atMost(WAIT).until(() -> !events(client, ns, "Promoted").isEmpty());
    }

    @Test
    void aFailingCandidateIsHeldBackAndNotTriedAgainUntilTheSpecChanges() {
        String ns = "holdback";
        Deployment serving = running(ns, "10.4.0.1", null);
        changeGate(ns, 0.99);
        Deployment candidate = await().atMost(WAIT).until(() -> candidate(ns), x -> x != null);
        pods.verificationResult("10.4.0.9", FAILED);
        MockCluster.readyPod(client, candidate, "rules-candidate-y", "10.4.0.9");

        RagSearch held = await().atMost(WAIT).until(() -> get(ns, "rules"),
                x -> x.getStatus().verification != null && VerificationStatus.HELD_BACK.equals(x.getStatus().verification.state));
        Condition verified = condition(held, Conditions.VERIFIED);
        assertEquals("False", verified.getStatus());
        assertEquals("VerificationFailed", verified.getReason());
        assertTrue(verified.getMessage().contains("annual-leave: expected handbook 제1조 in the top 5, got no supporting documents"),
                verified.getMessage());
        assertEquals(candidate.getMetadata().getAnnotations().get(Labels.VERSION), held.getStatus().verification.heldBackVersion);
        assertEquals(1, held.getStatus().verification.failed);
        await().atMost(WAIT).until(() -> candidate(ns) == null);
        await().atMost(WAIT).until(() -> !events(client, ns, "VerificationFailed").isEmpty());
        assertEquals(configHash(serving), configHash(deployment(ns, "rules")), "the running version keeps serving");
        assertFalse(client.configMaps().inNamespace(ns).withName("rules-config").get().getData().get("config.yaml").contains("0.99"));

        // A later reconcile (one that adds a disruption budget, outside the pod template) does not try it again.
        RagSearch later = reconciledWithDisruptionBudget(ns);
        assertNull(candidate(ns));
        assertEquals(1, pods.verificationStarts.get("10.4.0.9").size());
        assertEquals(configHash(serving), configHash(deployment(ns, "rules")));
        assertEquals("VerificationFailed", condition(later, Conditions.VERIFIED).getReason());
        assertTrue(condition(later, Conditions.VERIFIED).getMessage().contains("annual-leave: "));

        // A later change is a new version: verified again.
        changeGate(ns, 0.4);
        Deployment again = await().atMost(WAIT).until(() -> candidate(ns), x -> x != null);
        assertNotEquals(candidate.getMetadata().getAnnotations().get(Labels.VERSION), again.getMetadata().getAnnotations().get(Labels.VERSION));
    }

    @Test
    void aCandidateThatNeverBecomesReadyTimesOut() {
        String ns = "timeout";
        Deployment serving = running(ns, "10.5.0.1", 5);
        changeGate(ns, 0.6);
        await().atMost(WAIT).until(() -> candidate(ns), x -> x != null);
        RagSearch held = await().atMost(WAIT).until(() -> get(ns, "rules"),
                x -> x.getStatus().verification != null && VerificationStatus.HELD_BACK.equals(x.getStatus().verification.state));
        Condition verified = condition(held, Conditions.VERIFIED);
        assertEquals("VerificationTimedOut", verified.getReason());
        assertTrue(verified.getMessage().contains("no verdict within 5 s (no candidate pod became ready)"), verified.getMessage());
        await().atMost(WAIT).until(() -> candidate(ns) == null);
        assertEquals(configHash(serving), configHash(deployment(ns, "rules")));
        await().atMost(WAIT).until(() -> !events(client, ns, "VerificationTimedOut").isEmpty());
    }

    @Test
    void aChangeThatKeepsThePodTemplateNeedsNoVerification() {
        String ns = "unchanged";
        Deployment serving = running(ns, "10.6.0.1", null);
        RagSearch r = reconciledWithDisruptionBudget(ns);
        assertEquals(configHash(serving), configHash(deployment(ns, "rules")));
        assertNull(candidate(ns));
        assertEquals("Serving", condition(r, Conditions.VERIFIED).getReason());
        assertNotNull(r.getStatus().verification);
        assertEquals(VerificationStatus.PROMOTED, r.getStatus().verification.state);
    }

    /** Adds a disruption budget (outside the pod template) and waits for the reconcile that created it to write its status. */
    private static RagSearch reconciledWithDisruptionBudget(String ns) {
        RagSearch edit = get(ns, "rules");
        edit.getSpec().podDisruptionBudget = new io.ragsearch.operator.model.DisruptionBudget();
        edit.getSpec().podDisruptionBudget.minAvailable = 0;
        long generation = client.resource(edit).update().getMetadata().getGeneration();
        await().atMost(WAIT).until(() -> client.policy().v1().podDisruptionBudget().inNamespace(ns).withName("rules").get() != null);
        return await().atMost(WAIT).until(() -> get(ns, "rules"),
                x -> x.getStatus().observedGeneration != null && x.getStatus().observedGeneration >= generation);
    }

    private static Deployment candidate(String ns) {
        return deployment(ns, ObjectNames.candidate("rules"));
    }

    private static Condition condition(RagSearch r, String type) {
        return r.getStatus() == null ? null : Conditions.find(r.getStatus().conditions, type).orElse(null);
    }
}
