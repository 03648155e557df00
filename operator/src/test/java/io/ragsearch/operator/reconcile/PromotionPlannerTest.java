package io.ragsearch.operator.reconcile;

import io.ragsearch.contract.verification.Verification;
import io.ragsearch.operator.model.VerificationStatus;
import io.ragsearch.operator.reconcile.PromotionPlanner.CandidatePod;
import io.ragsearch.operator.reconcile.PromotionPlanner.Decision;
import io.ragsearch.operator.reconcile.PromotionPlanner.Inputs;
import io.ragsearch.operator.reconcile.PromotionPlanner.Running;
import io.ragsearch.operator.reconcile.PromotionPlanner.Serving;
import io.ragsearch.operator.spec.CheckedSpec;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every exit of the promotion decision, without a cluster or a pod. */
class PromotionPlannerTest {
    private static final CheckedSpec.Verification CHECKS = new CheckedSpec.Verification("checks", "checks.yaml", 60);
    private static final Instant T0 = Instant.parse("2026-12-04T10:00:00Z");
    private static final Running V1_RUNS = new Running(true, "v1");

    private static final Verification RUNNING_RUN = run(Verification.State.RUNNING, null, 0, 0, List.of(), null);
    private static final Verification PASSED_RUN = run(Verification.State.PASSED, "2026-12-04T10:00:04Z", 2, 0, List.of(
            new Verification.Row("leave", "search", true, "rank 1", "rank 2", "rank 1 → 2", null),
            new Verification.Row("projects", "list_projects", true, "1", "1", null, null)), null);
    private static final Verification FAILED_RUN = run(Verification.State.FAILED, "2026-12-04T10:00:03Z", 1, 1, List.of(
            new Verification.Row("leave", "search", false, "rank 1", "refused", "rank 1 → refused", "expected 제1조 in the top 5"),
            new Verification.Row("projects", "list_projects", true, "1", "1", null, null)), null);

    @Test
    void withoutVerificationTheSpecServesAndNothingIsKept() {
        Decision d = PromotionPlanner.decide(inputs(null, V1_RUNS, verifying("v2", T0, "pod-a"), null, T0));
        assertEquals(Serving.SPEC, d.serving());
        assertFalse(d.candidateWanted(), "a candidate left over is deleted");
        assertNull(d.status());
        assertNull(d.verdict(), "the Verified condition goes");
        assertFalse(d.pending());
    }

    @Test
    void theFirstVersionAndOneWrittenWithoutVerificationServeDirectly() {
        Decision first = PromotionPlanner.decide(inputs(CHECKS, Running.NONE, null, null, T0));
        assertEquals(Serving.SPEC, first.serving());
        assertFalse(first.candidateWanted());
        assertEquals("Serving", first.verdict().reason());
        assertTrue(first.verdict().verified());
        assertTrue(first.verdict().message().contains("no running version to compare with"), first.verdict().message());
        assertEquals(VerificationStatus.PROMOTED, first.status().state);
        assertEquals("v2", first.status().version);

        Decision older = PromotionPlanner.decide(inputs(CHECKS, new Running(true, null), null, null, T0));
        assertEquals(Serving.SPEC, older.serving());
        assertTrue(older.verdict().message().contains("predates verification"), older.verdict().message());
        assertTrue(older.announcements().isEmpty());
    }

    @Test
    void theRunningVersionServesAsItIsAndACandidateOfItIsDropped() {
        Decision d = PromotionPlanner.decide(inputs(CHECKS, new Running(true, "v2"), verifying("v2", T0, "pod-a"), null, T0));
        assertEquals(Serving.SPEC, d.serving());
        assertFalse(d.candidateWanted());
        assertEquals(VerificationStatus.PROMOTED, d.status().state, "a verification of the running version has nothing left to do");
        assertEquals("the running version is the spec's", d.verdict().message());

        VerificationStatus promoted = verifying("v2", T0, "pod-a");
        promoted.state = VerificationStatus.PROMOTED;
        promoted.outcome = "Passed";
        promoted.passed = 7;
        Decision passed = PromotionPlanner.decide(inputs(CHECKS, new Running(true, "v2"), promoted, null, T0));
        assertEquals("Passed", passed.verdict().reason());
        assertEquals("version v2 passed its checks (7) and serves", passed.verdict().message());
        assertEquals("pod-a", passed.status().candidatePod, "the promoted run's record stays");

        VerificationStatus heldBefore = verifying("v3", T0, null);
        heldBefore.state = VerificationStatus.HELD_BACK;
        heldBefore.heldBackVersion = "v3";
        Decision back = PromotionPlanner.decide(inputs(CHECKS, new Running(true, "v2"), heldBefore, null, T0));
        assertEquals("Serving", back.verdict().reason());
        assertEquals("v3", back.status().heldBackVersion, "the held-back version is still not tried again");
        assertEquals("v2", back.status().version);
    }

    @Test
    void aVersionHeldBackBeforeIsNotTriedAgain() {
        VerificationStatus held = verifying("v2", T0, "pod-a");
        held.state = VerificationStatus.HELD_BACK;
        held.heldBackVersion = "v2";
        held.outcome = "VerificationTimedOut";
        held.reason = "no verdict within 60 s";
        CandidatePod ready = new CandidatePod("pod-b", new PromotionPlanner.NoRun());
        Decision d = PromotionPlanner.decide(inputs(CHECKS, V1_RUNS, held, ready, T0.plusSeconds(3600)));
        assertEquals(Serving.RUNNING, d.serving());
        assertFalse(d.candidateWanted());
        assertNull(d.start(), "no checks on a held-back version's pod");
        assertEquals(VerificationStatus.HELD_BACK, d.status().state);
        assertFalse(d.verdict().verified());
        assertEquals("VerificationTimedOut", d.verdict().reason());
        assertEquals("version v2 held back: no verdict within 60 s. The running version v1 keeps serving; change the spec to try again",
                d.verdict().message());
        assertTrue(d.announcements().isEmpty(), "said once, when it was held back");
        assertFalse(d.pending());
    }

    @Test
    void aNewVersionStartsACandidateWhileTheRunningTemplateServes() {
        VerificationStatus earlier = verifying("v0", T0.minusSeconds(900), null);
        earlier.state = VerificationStatus.HELD_BACK;
        earlier.heldBackVersion = "v0";
        earlier.reason = "old reason";
        Decision d = PromotionPlanner.decide(inputs(CHECKS, V1_RUNS, earlier, null, T0));
        assertEquals(Serving.RUNNING, d.serving());
        assertTrue(d.candidateWanted());
        assertTrue(d.pending());
        assertEquals(VerificationStatus.VERIFYING, d.status().state);
        assertEquals("v2", d.status().version);
        assertEquals(T0.toString(), d.status().startedAt);
        assertEquals("v0", d.status().heldBackVersion, "an older held-back version stays remembered");
        assertNull(d.status().reason, "the last run's record is cleared");
        assertEquals("Verifying", d.verdict().reason());
        assertEquals("waiting for the candidate pod of version v2 to be ready", d.verdict().message());
        assertEquals(List.of(new Announcement(false, "VerificationStarted",
                "verifying version v2 on a candidate pod before it replaces v1")), d.announcements());
        assertEquals("old reason", earlier.reason, "the previous status is not touched");
    }

    @Test
    void aReadyCandidateGetsItsChecksStartedOnceAgainstTheServingService() {
        CandidatePod ready = new CandidatePod("pod-a", new PromotionPlanner.NoRun());
        Decision d = PromotionPlanner.decide(inputs(CHECKS, V1_RUNS, verifying("v2", T0, null), ready, T0.plusSeconds(5)));
        assertEquals(new PromotionPlanner.StartChecks("pod-a", true, d.start().ifUnreachable()), d.start());
        assertEquals("pod-a", d.status().candidatePod);
        assertEquals("checks running on pod-a against the serving Service rules", d.verdict().message());
        assertTrue(d.announcements().isEmpty());

        Decision alone = PromotionPlanner.decide(new Inputs("rules", CHECKS, "v2", V1_RUNS, verifying("v2", T0, null), ready,
                false, T0.plusSeconds(5)));
        assertFalse(alone.start().againstService());
        assertEquals("checks running on pod-a against no baseline (no serving pod is ready)", alone.verdict().message());

        // Auth mode jwt: the candidate holds no token the serving pods would take, so none is named.
        Decision jwt = PromotionPlanner.decide(inputs(new CheckedSpec.Verification("checks", "checks.yaml", 60, false), V1_RUNS,
                verifying("v2", T0, null), ready, T0.plusSeconds(5)));
        assertFalse(jwt.start().againstService());
        assertEquals("checks running on pod-a against their expectations alone (auth mode jwt: no token of the candidate's opens "
                + "the serving pods)", jwt.verdict().message());

        Decision failed = PromotionPlanner.startFailed(d.start(), "connection refused");
        assertNull(failed.start());
        assertNull(failed.status().candidatePod, "not started: tried again on the next reconcile");
        assertEquals("cannot reach the candidate pod pod-a: connection refused", failed.verdict().message());
        assertTrue(failed.pending());
        assertTrue(failed.candidateWanted());
    }

    @Test
    void whileTheChecksRunTheDecisionWaits() {
        VerificationStatus started = verifying("v2", T0, "pod-a");
        Decision running = PromotionPlanner.decide(inputs(CHECKS, V1_RUNS, started,
                new CandidatePod("pod-a", new PromotionPlanner.Run(RUNNING_RUN)), T0.plusSeconds(10)));
        assertNull(running.start());
        assertEquals("checks running on pod-a", running.verdict().message());
        assertEquals(Serving.RUNNING, running.serving());

        Decision silent = PromotionPlanner.decide(inputs(CHECKS, V1_RUNS, started,
                new CandidatePod("pod-a", new PromotionPlanner.Unreachable("timed out")), T0.plusSeconds(10)));
        assertEquals("cannot reach the candidate pod pod-a: timed out", silent.verdict().message());
        assertEquals("pod-a", silent.status().candidatePod);

        Decision lost = PromotionPlanner.decide(inputs(CHECKS, V1_RUNS, started,
                new CandidatePod("pod-a", new PromotionPlanner.NoRun()), T0.plusSeconds(10)));
        assertNull(lost.status().candidatePod, "a restarted pod lost its run: started again next time");
        assertEquals("the candidate pod has no verification run; starting it again", lost.verdict().message());

        Decision replaced = PromotionPlanner.decide(inputs(CHECKS, V1_RUNS, started,
                new CandidatePod("pod-b", new PromotionPlanner.Run(PASSED_RUN)), T0.plusSeconds(10)));
        assertEquals("pod-b", replaced.start().pod(), "a pass on a pod the checks were not started on counts for nothing");
        assertEquals(Serving.RUNNING, replaced.serving());
    }

    @Test
    void aPassPromotesTheNewVersion() {
        Decision d = PromotionPlanner.decide(inputs(CHECKS, V1_RUNS, verifying("v2", T0, "pod-a"),
                new CandidatePod("pod-a", new PromotionPlanner.Run(PASSED_RUN)), T0.plusSeconds(20)));
        assertEquals(Serving.SPEC, d.serving());
        assertFalse(d.candidateWanted());
        assertFalse(d.pending());
        assertEquals(VerificationStatus.PROMOTED, d.status().state);
        assertEquals("Passed", d.status().outcome);
        assertEquals(2, d.status().passed);
        assertEquals(0, d.status().failed);
        assertEquals(4000L, d.status().checksMillis);
        assertEquals(T0.plusSeconds(20).toString(), d.status().finishedAt);
        String message = "version v2 passed 2 checks (1 differ from the baseline) on pod-a; promoted over v1";
        assertEquals(new PromotionPlanner.Verdict(true, "Passed", message), d.verdict());
        assertEquals(List.of(new Announcement(false, "Promoted", message)), d.announcements());
    }

    @Test
    void aFailureHoldsTheNewVersionBackWithTheFailedChecks() {
        Decision d = PromotionPlanner.decide(inputs(CHECKS, V1_RUNS, verifying("v2", T0, "pod-a"),
                new CandidatePod("pod-a", new PromotionPlanner.Run(FAILED_RUN)), T0.plusSeconds(20)));
        assertEquals(Serving.RUNNING, d.serving());
        assertFalse(d.candidateWanted());
        assertEquals(VerificationStatus.HELD_BACK, d.status().state);
        assertEquals("v2", d.status().heldBackVersion);
        assertEquals("VerificationFailed", d.status().outcome);
        assertEquals("1 of 2 checks failed: leave: expected 제1조 in the top 5", d.status().reason);
        assertEquals(1, d.status().failed);
        assertFalse(d.verdict().verified());
        assertEquals("VerificationFailed", d.verdict().reason());
        assertEquals(1, d.announcements().size());
        assertTrue(d.announcements().get(0).warning());
        assertEquals(d.verdict().message(), d.announcements().get(0).message());

        Verification broken = run(Verification.State.FAILED, "2026-12-04T10:00:01Z", 0, 0, List.of(), "x".repeat(5000));
        Decision cut = PromotionPlanner.decide(inputs(CHECKS, V1_RUNS, verifying("v2", T0, "pod-a"),
                new CandidatePod("pod-a", new PromotionPlanner.Run(broken)), T0.plusSeconds(20)));
        assertEquals(2000, cut.status().reason.length(), "a status field stays within the CRD's bound");
        assertTrue(cut.status().reason.endsWith("…"));
    }

    @Test
    void noVerdictInTimeHoldsTheNewVersionBack() {
        Decision never = PromotionPlanner.decide(inputs(CHECKS, V1_RUNS, verifying("v2", T0, null), null, T0.plusSeconds(61)));
        assertEquals(Serving.RUNNING, never.serving());
        assertFalse(never.candidateWanted());
        assertEquals("VerificationTimedOut", never.verdict().reason());
        assertEquals("no verdict within 60 s (no candidate pod became ready)", never.status().reason);
        assertEquals("v2", never.status().heldBackVersion);

        Decision slow = PromotionPlanner.decide(inputs(CHECKS, V1_RUNS, verifying("v2", T0, "pod-a"),
                new CandidatePod("pod-a", new PromotionPlanner.Run(PASSED_RUN)), T0.plusSeconds(61)));
        assertEquals("no verdict within 60 s (checks started on pod-a)", slow.status().reason,
                "the timeout is checked first: a late verdict does not count");

        Decision onTime = PromotionPlanner.decide(inputs(CHECKS, V1_RUNS, verifying("v2", T0, null), null, T0.plusSeconds(60)));
        assertTrue(onTime.pending(), "exactly the timeout is still in time");
    }

    private static Inputs inputs(CheckedSpec.Verification checks, Running running, VerificationStatus previous,
                                 CandidatePod candidate, Instant now) {
        return new Inputs("rules", checks, "v2", running, previous, candidate, true, now);
    }

    private static VerificationStatus verifying(String version, Instant startedAt, String pod) {
        VerificationStatus s = new VerificationStatus();
        s.state = VerificationStatus.VERIFYING;
        s.version = version;
        s.startedAt = startedAt.toString();
        s.candidatePod = pod;
        return s;
    }

    private static Verification run(Verification.State state, String finishedAt, int passed, int failed, List<Verification.Row> rows,
                                    String error) {
        return new Verification(state, "checks", "c", "b", "2026-12-04T10:00:00Z", finishedAt, passed, failed,
                (int) rows.stream().filter(r -> r.difference() != null).count(), rows, error);
    }
}
