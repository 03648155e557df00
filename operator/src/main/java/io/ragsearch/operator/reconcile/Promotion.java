package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.ragsearch.contract.verification.Verification;
import io.ragsearch.operator.podadmin.PodAdminClient;
import io.ragsearch.operator.manifest.CandidateObjects;
import io.ragsearch.operator.manifest.Manifests;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.VerificationStatus;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.naming.ObjectNames;
import io.ragsearch.operator.spec.CheckedSpec;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Decides which version the serving pods run when spec.verification is set. A new version (the
 * pod template's digest without the rerank concurrency) is first brought up as a candidate
 * Deployment whose pods no Service selects; the candidate runs the checks against itself with a
 * ready serving pod as baseline; on a pass the serving Deployment rolls to it, on a failure or a
 * timeout it is held back and that version is not tried again until the spec changes. Meanwhile
 * the serving Deployment and its ConfigMap stay exactly as they run.
 */
final class Promotion {

    /** What the serving objects are this reconcile, the status to show, and the Verified condition (null: none). */
    record Outcome(Manifests manifests, VerificationStatus status, Verdict verdict, boolean pending) {
    }

    record Verdict(boolean verified, String reason, String message) {
    }

    private final KubernetesClient client;
    private final PodAdminClient pods;
    private final int adminPort;
    private final EventRecorder events;
    private final Clock clock;

    Promotion(KubernetesClient client, PodAdminClient pods, int adminPort, EventRecorder events, Clock clock) {
        this.client = client;
        this.pods = pods;
        this.adminPort = adminPort;
        this.events = events;
        this.clock = clock;
    }

    Outcome decide(RagSearch resource, CheckedSpec spec, Manifests built, RolloutPods rollout, VerificationStatus previous) {
        var verification = spec.spec().verification;
        if (verification == null) {
            if (previous != null || !candidatePods(rollout).isEmpty()) {
                deleteCandidate(spec);
            }
            return new Outcome(built, null, null, false);
        }
        String version = built.version();
        Deployment running = client.apps().deployments().inNamespace(spec.namespace()).withName(spec.name()).get();
        String runningVersion = running == null ? null : Manifests.version(running);
        if (running == null || runningVersion == null || runningVersion.equals(version)) {
            // Nothing to compare with (the first version, or one an operator without verification rolled), or no new version.
            if ((previous != null && VerificationStatus.VERIFYING.equals(previous.state)) || !candidatePods(rollout).isEmpty()) {
                deleteCandidate(spec);
            }
            VerificationStatus s = copy(previous);
            if (s.state == null || VerificationStatus.VERIFYING.equals(s.state)) {
                s.state = VerificationStatus.PROMOTED;
            }
            if (VerificationStatus.PROMOTED.equals(s.state) && "Passed".equals(s.outcome) && version.equals(s.version)) {
                return new Outcome(built, s, new Verdict(true, "Passed", "version " + version + " passed its checks ("
                        + s.passed + ") and serves"), false);
            }
            s.version = version;
            String why = running == null ? "the first version serves directly: there is no running version to compare with"
                    : runningVersion == null ? "the running version predates verification; the next new version is verified"
                    : "the running version is the spec's";
            return new Outcome(built, s, new Verdict(true, "Serving", why), false);
        }
        ConfigMap runningConfig = client.configMaps().inNamespace(spec.namespace()).withName(ObjectNames.configMap(spec.name())).get();
        Manifests held = built.holding(runningConfig, running);
        if (previous != null && version.equals(previous.heldBackVersion)) {
            if (!candidatePods(rollout).isEmpty() || VerificationStatus.VERIFYING.equals(previous.state)) {
                deleteCandidate(spec);
            }
            VerificationStatus s = copy(previous);
            s.state = VerificationStatus.HELD_BACK;
            return new Outcome(held, s, new Verdict(false, previous.outcome == null ? "VerificationFailed" : previous.outcome,
                    heldBackMessage(version, previous.reason, runningVersion)), false);
        }
        return verify(resource, spec, built, held, rollout, previous, version, runningVersion, verification.timeoutOrDefault());
    }

    private Outcome verify(RagSearch resource, CheckedSpec spec, Manifests built, Manifests held, RolloutPods rollout,
                           VerificationStatus previous, String version, String runningVersion, int timeoutSeconds) {
        Instant now = clock.instant();
        VerificationStatus s = copy(previous);
        if (!VerificationStatus.VERIFYING.equals(s.state) || !version.equals(s.version)) {
            s.state = VerificationStatus.VERIFYING;
            s.version = version;
            s.startedAt = now.toString();
            s.finishedAt = null;
            s.candidatePod = null;
            s.passed = null;
            s.failed = null;
            s.checksMillis = null;
            s.reason = null;
            s.outcome = null;
            events.normal(resource, "VerificationStarted", "verifying version " + version + " on a candidate pod before it "
                    + "replaces " + runningVersion);
        }
        applyCandidate(spec, built);
        if (now.isAfter(Instant.parse(s.startedAt).plus(Duration.ofSeconds(timeoutSeconds)))) {
            return holdBack(resource, spec, held, s, "VerificationTimedOut", "no verdict within " + timeoutSeconds + " s"
                    + (s.candidatePod == null ? " (no candidate pod became ready)" : " (checks started on " + s.candidatePod + ")"),
                    runningVersion);
        }
        Optional<Pod> candidate = candidatePods(rollout).stream()
                .filter(RolloutPods::ready)
                .filter(p -> version.equals(p.getMetadata().getLabels().get(Labels.VERSION)))
                .findFirst();
        if (candidate.isEmpty()) {
            return pending(held, s, "waiting for the candidate pod of version " + version + " to be ready");
        }
        Pod pod = candidate.get();
        String ip = pod.getStatus().getPodIP();
        try {
            if (!pod.getMetadata().getName().equals(s.candidatePod)) {
                Pod baseline = rollout.readyWith(Labels.LABEL_NAME, "ragsearch").stream().findFirst().orElse(null);
                // The baseline is the serving Service (the candidate allows no other address for its token), used once a serving pod is ready.
                pods.startVerification(ip, adminPort, baseline == null ? null : ObjectNames.serviceMcpUrl(spec.name(), spec.namespace()));
                s.candidatePod = pod.getMetadata().getName();
                return pending(held, s, "checks running on " + s.candidatePod + " against "
                        + (baseline == null ? "no baseline (no serving pod is ready)" : "the serving Service " + spec.name()));
            }
            Optional<Verification> result = pods.verification(ip, adminPort);
            if (result.isEmpty()) {
                // The pod restarted and lost the run: start again on the next reconcile.
                s.candidatePod = null;
                return pending(held, s, "the candidate pod has no verification run; starting it again");
            }
            Verification v = result.get();
            if (!v.finished()) {
                return pending(held, s, "checks running on " + s.candidatePod);
            }
            s.passed = v.passed();
            s.failed = v.failed();
            s.checksMillis = checksMillis(v);
            s.finishedAt = now.toString();
            if (v.state() == Verification.State.PASSED) {
                return promote(resource, spec, built, s, v, runningVersion);
            }
            String why = v.error() != null ? v.error() : String.join("; ", v.failures());
            return holdBack(resource, spec, held, s, "VerificationFailed", v.failed() + " of " + v.checks().size()
                    + " checks failed: " + why, runningVersion);
        } catch (IOException e) {
            return pending(held, s, "cannot reach the candidate pod " + pod.getMetadata().getName() + ": " + e.getMessage());
        }
    }

    private Outcome promote(RagSearch resource, CheckedSpec spec, Manifests built, VerificationStatus s, Verification v,
                            String runningVersion) {
        deleteCandidate(spec);
        s.state = VerificationStatus.PROMOTED;
        s.reason = null;
        s.outcome = "Passed";
        String message = "version " + s.version + " passed " + v.passed() + " checks (" + v.differences()
                + " differ from the baseline) on " + s.candidatePod + "; promoted over " + runningVersion;
        events.normal(resource, "Promoted", message);
        return new Outcome(built, s, new Verdict(true, "Passed", message), false);
    }

    private Outcome holdBack(RagSearch resource, CheckedSpec spec, Manifests held, VerificationStatus s, String reason, String why,
                             String runningVersion) {
        deleteCandidate(spec);
        s.state = VerificationStatus.HELD_BACK;
        s.heldBackVersion = s.version;
        s.finishedAt = clock.instant().toString();
        s.reason = why.length() > 2000 ? why.substring(0, 1999) + "…" : why;
        s.outcome = reason;
        String message = heldBackMessage(s.version, s.reason, runningVersion);
        events.warning(resource, reason, message);
        return new Outcome(held, s, new Verdict(false, reason, message), false);
    }

    private static Long checksMillis(Verification v) {
        try {
            return v.finishedAt() == null ? null
                    : Math.max(0, Duration.between(Instant.parse(v.startedAt()), Instant.parse(v.finishedAt())).toMillis());
        } catch (java.time.format.DateTimeParseException e) {
            return null; // a time the pod wrote oddly is not worth failing the verdict over
        }
    }

    private static String heldBackMessage(String version, String why, String runningVersion) {
        return "version " + version + " held back: " + why + ". The running version " + runningVersion
                + " keeps serving; change the spec to try again";
    }

    private static Outcome pending(Manifests held, VerificationStatus s, String message) {
        return new Outcome(held, s, new Verdict(false, "Verifying", message), true);
    }

    /** Creates the candidate, or replaces one of another version; one of this version is left alone (its pods keep running). */
    private void applyCandidate(CheckedSpec spec, Manifests built) {
        Deployment existing = client.apps().deployments().inNamespace(spec.namespace()).withName(ObjectNames.candidate(spec.name())).get();
        if (existing != null && built.version().equals(Manifests.version(existing))) {
            return;
        }
        CandidateObjects.Candidate c = CandidateObjects.build(spec, built, spec.spec().verification);
        client.resource(c.configMap()).createOr(r -> r.update());
        client.resource(c.deployment()).createOr(r -> r.update());
    }

    private void deleteCandidate(CheckedSpec spec) {
        client.apps().deployments().inNamespace(spec.namespace()).withName(ObjectNames.candidate(spec.name())).delete();
        client.configMaps().inNamespace(spec.namespace()).withName(ObjectNames.candidateConfigMap(spec.name())).delete();
    }

    private static List<Pod> candidatePods(RolloutPods rollout) {
        return rollout.pods().stream()
                .filter(p -> p.getMetadata().getLabels() != null
                        && Labels.ROLE_CANDIDATE.equals(p.getMetadata().getLabels().get(Labels.LABEL_ROLE)))
                .toList();
    }

    private static VerificationStatus copy(VerificationStatus old) {
        VerificationStatus s = new VerificationStatus();
        if (old != null) {
            s.state = old.state;
            s.version = old.version;
            s.heldBackVersion = old.heldBackVersion;
            s.startedAt = old.startedAt;
            s.finishedAt = old.finishedAt;
            s.candidatePod = old.candidatePod;
            s.passed = old.passed;
            s.failed = old.failed;
            s.checksMillis = old.checksMillis;
            s.reason = old.reason;
            s.outcome = old.outcome;
        }
        return s;
    }
}
