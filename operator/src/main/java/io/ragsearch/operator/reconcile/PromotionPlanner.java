package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.ragsearch.contract.verification.Verification;
import io.ragsearch.operator.model.VerificationStatus;
import io.ragsearch.operator.spec.CheckedSpec;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * spec.verification's decision, free of I/O: which pod template the serving objects run, whether
 * a candidate of the new version should exist, whether its checks start now, and the status,
 * condition and events that follow. A version is the pod template's digest without the rerank
 * concurrency, so the tuning loop's re-rolls are never verified.
 *
 * <ul>
 *   <li>No spec.verification: the spec's template serves, no candidate, no status.</li>
 *   <li>Nothing to compare with (no running Deployment, or one an operator without verification
 *       wrote) or no new version: the spec's template serves ({@code Serving}, or {@code Passed}
 *       while the promoted version runs).</li>
 *   <li>A version held back before: the running template keeps serving and it is not tried again.</li>
 *   <li>Otherwise the new version is verified on a candidate while the running template serves:
 *       past the timeout it is held back; without a ready candidate pod, wait; a ready pod the
 *       checks were not started on gets them started; a finished run promotes (pass) or holds
 *       back (fail).</li>
 * </ul>
 */
public final class PromotionPlanner {

    /** The serving Deployment as it runs: absent, or present with its version (null: written by an operator without verification). */
    public record Running(boolean exists, String version) {
        public static final Running NONE = new Running(false, null);
    }

    /** The ready candidate pod of the spec's version, and what its /verification answered this reconcile. */
    public record CandidatePod(String name, CandidateRun run) {
    }

    /** A candidate pod's verification run as read: none there (404), a run, or no answer. */
    public sealed interface CandidateRun {
    }

    public record NoRun() implements CandidateRun {
    }

    public record Run(Verification verification) implements CandidateRun {
    }

    public record Unreachable(String why) implements CandidateRun {
    }

    /**
     * Everything the decision reads. {@code verification} is null without spec.verification;
     * {@code candidate} null while no candidate pod of {@code version} is ready.
     */
    public record Inputs(String name, CheckedSpec.Verification verification, String version, Running running,
                         VerificationStatus previous, CandidatePod candidate, boolean servingPodReady, Instant now) {
    }

    /** Which pod template the serving Deployment and its ConfigMap get: the spec's, or the one that runs. */
    public enum Serving { SPEC, RUNNING }

    /** The Verified condition. */
    public record Verdict(boolean verified, String reason, String message) {
    }

    /**
     * Start the checks on this candidate pod, against the serving Service when a serving pod is
     * ready. {@code ifUnreachable} is the decision to keep when the pod cannot be reached.
     */
    public record StartChecks(String pod, boolean againstService, Decision ifUnreachable) {
    }

    /** What should exist after this reconcile. {@code status} and {@code verdict} are null without spec.verification. */
    public record Decision(Serving serving, boolean candidateWanted, StartChecks start, VerificationStatus status,
                           Verdict verdict, List<Announcement> announcements, boolean pending) {
    }

    static final String PASSED = "Passed";
    static final String FAILED = "VerificationFailed";
    static final String TIMED_OUT = "VerificationTimedOut";
    /** A status field's bound in the CRD (SchemaBounds.STATUS_TEXT), with room for the ellipsis. */
    private static final int MAX_REASON = 2000;
    private static final KubernetesSerialization COPIES = new KubernetesSerialization();

    private PromotionPlanner() {
    }

    public static Decision decide(Inputs in) {
        if (in.verification() == null) {
            return new Decision(Serving.SPEC, false, null, null, null, List.of(), false);
        }
        Running running = in.running();
        if (!running.exists() || running.version() == null || running.version().equals(in.version())) {
            return serving(in);
        }
        VerificationStatus previous = in.previous();
        if (previous != null && in.version().equals(previous.heldBackVersion)) {
            VerificationStatus s = copy(previous);
            s.state = VerificationStatus.HELD_BACK;
            return new Decision(Serving.RUNNING, false, null, s, new Verdict(false, previous.outcome == null ? FAILED : previous.outcome,
                    heldBackMessage(in.version(), previous.reason, running.version())), List.of(), false);
        }
        return verify(in);
    }

    /** The spec's version serves directly. */
    private static Decision serving(Inputs in) {
        VerificationStatus s = copy(in.previous());
        if (s.state == null || VerificationStatus.VERIFYING.equals(s.state)) {
            s.state = VerificationStatus.PROMOTED;
        }
        if (VerificationStatus.PROMOTED.equals(s.state) && PASSED.equals(s.outcome) && in.version().equals(s.version)) {
            return new Decision(Serving.SPEC, false, null, s, new Verdict(true, PASSED, "version " + in.version()
                    + " passed its checks (" + s.passed + ") and serves"), List.of(), false);
        }
        s.version = in.version();
        Running running = in.running();
        String why = !running.exists() ? "the first version serves directly: there is no running version to compare with"
                : running.version() == null ? "the running version predates verification; the next new version is verified"
                : "the running version is the spec's";
        return new Decision(Serving.SPEC, false, null, s, new Verdict(true, "Serving", why), List.of(), false);
    }

    private static Decision verify(Inputs in) {
        String version = in.version();
        String runningVersion = in.running().version();
        List<Announcement> said = new ArrayList<>();
        VerificationStatus s = copy(in.previous());
        if (!VerificationStatus.VERIFYING.equals(s.state) || !version.equals(s.version)) {
            VerificationStatus fresh = new VerificationStatus();
            fresh.state = VerificationStatus.VERIFYING;
            fresh.version = version;
            fresh.startedAt = in.now().toString();
            fresh.heldBackVersion = s.heldBackVersion;
            s = fresh;
            said.add(new Announcement(false, "VerificationStarted", "verifying version " + version
                    + " on a candidate pod before it replaces " + runningVersion));
        }
        int timeout = in.verification().timeoutSeconds();
        if (in.now().isAfter(Instant.parse(s.startedAt).plus(Duration.ofSeconds(timeout)))) {
            return holdBack(s, said, TIMED_OUT, "no verdict within " + timeout + " s" + (s.candidatePod == null
                    ? " (no candidate pod became ready)" : " (checks started on " + s.candidatePod + ")"), runningVersion, in.now());
        }
        CandidatePod pod = in.candidate();
        if (pod == null) {
            return pending(s, said, null, "waiting for the candidate pod of version " + version + " to be ready");
        }
        if (!pod.name().equals(s.candidatePod)) {
            Decision unreachable = pending(copy(s), List.copyOf(said), null, "cannot reach the candidate pod " + pod.name());
            s.candidatePod = pod.name();
            boolean baseline = in.servingPodReady() && in.verification().withBaseline();
            return pending(s, said, new StartChecks(pod.name(), baseline, unreachable), "checks running on "
                    + pod.name() + " against " + (baseline ? "the serving Service " + in.name()
                    : !in.verification().withBaseline() ? "their expectations alone (auth mode jwt: no token of the candidate's opens the serving pods)"
                    : "no baseline (no serving pod is ready)"));
        }
        if (pod.run() instanceof NoRun) {
            // The pod restarted and lost the run: started again on the next reconcile.
            s.candidatePod = null;
            return pending(s, said, null, "the candidate pod has no verification run; starting it again");
        }
        if (pod.run() instanceof Unreachable u) {
            return pending(s, said, null, "cannot reach the candidate pod " + pod.name() + ": " + u.why());
        }
        Verification v = ((Run) pod.run()).verification();
        if (!v.finished()) {
            return pending(s, said, null, "checks running on " + s.candidatePod);
        }
        s.passed = v.passed();
        s.failed = v.failed();
        s.checksMillis = checksMillis(v);
        s.finishedAt = in.now().toString();
        if (v.state() == Verification.State.PASSED) {
            s.state = VerificationStatus.PROMOTED;
            s.reason = null;
            s.outcome = PASSED;
            String message = "version " + s.version + " passed " + v.passed() + " checks (" + v.differences()
                    + " differ from the baseline) on " + s.candidatePod + "; promoted over " + runningVersion;
            said.add(new Announcement(false, "Promoted", message));
            return new Decision(Serving.SPEC, false, null, s, new Verdict(true, PASSED, message), List.copyOf(said), false);
        }
        String why = v.error() != null ? v.error() : String.join("; ", v.failures());
        return holdBack(s, said, FAILED, v.failed() + " of " + v.checks().size() + " checks failed: " + why, runningVersion,
                in.now());
    }

    /** What the decision becomes when the candidate pod cannot be reached to start its checks. */
    public static Decision startFailed(StartChecks start, String why) {
        Decision d = start.ifUnreachable();
        return new Decision(d.serving(), d.candidateWanted(), null, d.status(),
                new Verdict(false, d.verdict().reason(), d.verdict().message() + ": " + why), d.announcements(), d.pending());
    }

    private static Decision holdBack(VerificationStatus s, List<Announcement> said, String reason, String why,
                                     String runningVersion, Instant now) {
        s.state = VerificationStatus.HELD_BACK;
        s.heldBackVersion = s.version;
        s.finishedAt = now.toString();
        s.reason = why.length() > MAX_REASON ? why.substring(0, MAX_REASON - 1) + "…" : why;
        s.outcome = reason;
        String message = heldBackMessage(s.version, s.reason, runningVersion);
        said.add(new Announcement(true, reason, message));
        return new Decision(Serving.RUNNING, false, null, s, new Verdict(false, reason, message), List.copyOf(said), false);
    }

    private static Decision pending(VerificationStatus s, List<Announcement> said, StartChecks start, String message) {
        return new Decision(Serving.RUNNING, true, start, s, new Verdict(false, "Verifying", message), List.copyOf(said), true);
    }

    private static Long checksMillis(Verification v) {
        try {
            return v.finishedAt() == null ? null
                    : Math.max(0, Duration.between(Instant.parse(v.startedAt()), Instant.parse(v.finishedAt())).toMillis());
        } catch (DateTimeParseException e) {
            return null; // a time the pod wrote oddly is not worth failing the verdict over
        }
    }

    private static String heldBackMessage(String version, String why, String runningVersion) {
        return "version " + version + " held back: " + why + ". The running version " + runningVersion
                + " keeps serving; change the spec to try again";
    }

    /** The previous status is the caller's: every exit works on its own copy. */
    private static VerificationStatus copy(VerificationStatus previous) {
        return previous == null ? new VerificationStatus() : COPIES.clone(previous);
    }
}
