package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.AggregatedOperatorException;
import io.ragsearch.operator.budget.Mebibytes;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.EmbeddingStatus;
import io.ragsearch.operator.model.RagSearchStatus;
import io.ragsearch.operator.model.RerankStatus;
import io.ragsearch.operator.model.ResizeStatus;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.naming.ObjectNames;
import io.ragsearch.operator.spec.CheckedSpec;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Composes the status of a reconcile and an Event for each decision that changed since the last
 * one (the previous status is the memory, so a restarted operator does not repeat itself). Pure:
 * the events are returned as {@link Announcement}s, written when the reconcile acts.
 */
final class StatusComposer {
    private static final KubernetesSerialization COPIES = new KubernetesSerialization();

    /** A status and the events that tell what changed in it, in the order they are written. */
    record Composed(RagSearchStatus status, List<Announcement> events) {
    }

    private StatusComposer() {
    }

    /** A spec the reconciler refuses: the old decision and everything running stay as they were. */
    static Composed invalid(RagSearch resource, RagSearchStatus old, List<String> problems, Instant now) {
        RagSearchStatus next = copyOf(old);
        next.observedGeneration = resource.getMetadata().getGeneration();
        String message = String.join("; ", problems) + ". The running Deployment is left as it was.";
        Conditions conditions = new Conditions(old == null ? null : old.conditions, generation(resource), now);
        conditions.set(Conditions.INVALID_SPEC, true, "InvalidSpec", message);
        // The reconcile went through (to its refusal): an earlier failure's condition is over.
        conditions.remove(Conditions.RECONCILE_FAILED);
        next.conditions = conditions.list();
        List<Announcement> events = changed(old, Conditions.INVALID_SPEC, true, message)
                ? List.of(Announcement.warning("InvalidSpec", message)) : List.of();
        return new Composed(next, events);
    }

    static Composed valid(RagSearch resource, RagSearchStatus old, CheckedSpec spec, RerankPlanner.Plan plan,
                          int readyReplicas, List<DatabaseReader.PodDatabase> databases,
                          List<EmbeddingReader.PodEmbedding> embedding, Instant now) {
        RagSearchStatus next = new RagSearchStatus();
        next.observedGeneration = resource.getMetadata().getGeneration();
        next.rerank = plan.status();
        next.replicas = spec.replicas();
        next.selector = Labels.selectorText(spec.name());
        next.readyReplicas = readyReplicas;
        next.endpoint = ObjectNames.serviceMcpUrl(spec.name(), spec.namespace());
        next.embedding = EmbeddingReader.summary(embedding);
        Conditions conditions = new Conditions(old == null ? null : old.conditions, generation(resource), now);
        conditions.set(Conditions.INVALID_SPEC, false, "Valid", "the spec passed every check");
        ready(conditions, spec, readyReplicas, next.endpoint, next.embedding);
        calibrated(conditions, spec, plan.status(), plan.refused());
        memory(conditions, spec, plan);
        clamped(conditions, spec, plan);
        database(conditions, spec, databases);
        conditions.remove(Conditions.RECONCILE_FAILED);
        next.conditions = conditions.list();
        return new Composed(next, announce(old, next, spec, plan));
    }

    /**
     * The verification's state and its Verified condition (removed without spec.verification), set on {@code next};
     * returned, the events the decision made.
     */
    static List<Announcement> verification(RagSearch resource, RagSearchStatus next, PromotionPlanner.Decision decision, Instant now) {
        next.verification = decision.status();
        Conditions conditions = new Conditions(next.conditions, generation(resource), now);
        PromotionPlanner.Verdict verdict = decision.verdict();
        if (verdict == null) {
            conditions.remove(Conditions.VERIFIED);
        } else {
            conditions.set(Conditions.VERIFIED, verdict.verified(), verdict.reason(), verdict.message());
        }
        next.conditions = conditions.list();
        return decision.announcements();
    }

    /**
     * status.resize, set on {@code next}: the previous one while the template has the spec's limits, else the decision
     * and how far the pods got ({@code progress}, null for a roll); returned, the events: a new decision, a refusal,
     * the re-tune once every pod took it.
     */
    static List<Announcement> resize(RagSearchStatus next, ResizeStatus previous, ResizePlanner.Decision resize, CheckedSpec spec,
                                     CheckedSpec rendered, InPlaceResize.Progress progress, Instant requestedAt) {
        if (resize.mode() == ResizePlanner.Mode.UNCHANGED) {
            next.resize = previous;
            return List.of();
        }
        next.resize = InPlaceResize.status(previous, resize, spec, rendered, progress, requestedAt);
        List<Announcement> said = new ArrayList<>();
        boolean newDecision = previous == null || !Objects.equals(previous.reason, next.resize.reason)
                || !InPlaceResize.sameTarget(previous, next.resize.memoryLimitBytes, next.resize.cpuLimitMillis);
        if (newDecision) {
            // A roll the cluster or the pods' use forced on the spec is a warning; the others are the rule at work.
            boolean expected = resize.inPlace() || ResizePlanner.REASON_OTHER_CHANGES.equals(resize.reason())
                    || ResizePlanner.REASON_ROLLOUT.equals(resize.reason());
            said.add(new Announcement(!expected, resize.reason(), resize.message()));
        }
        if (progress != null && progress.refused() != null && (previous == null || previous.refused == null)) {
            said.add(Announcement.warning(ResizePlanner.REASON_REFUSED, "the cluster refused an in-place resize (" + progress.refused()
                    + "): the pods roll with the new limits"));
        }
        if (next.resize.retunedAt != null && (previous == null || !next.resize.retunedAt.equals(previous.retunedAt))) {
            said.add(Announcement.normal("Retuned", "every pod runs at memory " + (spec.memoryBytes() >> 20)
                    + " MiB with rerank concurrency " + next.resize.concurrency + ", " + next.resize.secondsToRetune
                    + " s after the spec asked for it"));
        }
        return said;
    }

    /**
     * The status after a reconcile failed with an exception nothing planned for (the API server refused a write, a
     * dependent could not be applied): everything as the last reconcile left it, with {@code ReconcileFailed} saying
     * what failed and whether it is retried. No event: a retried failure would repeat it at every attempt.
     *
     * @param lastAttempt JOSDK will not retry: the next change of the RagSearch or its pods reconciles it again
     */
    static RagSearchStatus failed(RagSearch resource, Exception e, boolean lastAttempt, Instant now) {
        RagSearchStatus next = resource.getStatus() == null ? new RagSearchStatus() : COPIES.clone(resource.getStatus());
        Conditions conditions = new Conditions(next.conditions, generation(resource), now);
        conditions.set(Conditions.RECONCILE_FAILED, true, "UnexpectedError", "the reconcile failed: " + describe(e)
                + (lastAttempt ? "; not retried again until the RagSearch or its pods change" : "; retried with back-off")
                + ". The objects are as far as it got.");
        next.conditions = conditions.list();
        return next;
    }

    /** The exception and its causes, each once; a workflow's failure names each dependent that failed. */
    static String describe(Throwable e) {
        List<String> parts = new ArrayList<>();
        for (Throwable t = e; t != null && parts.size() < 4; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof AggregatedOperatorException aggregated) {
                aggregated.getAggregatedExceptions().forEach((dependent, failure) -> parts.add(dependent + ": " + text(failure)));
                break;
            }
            String text = text(t);
            if (parts.stream().noneMatch(p -> p.contains(text))) {
                parts.add(text);
            }
        }
        return String.join("; ", parts);
    }

    private static String text(Throwable t) {
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }

    private static void ready(Conditions c, CheckedSpec spec, int ready, String endpoint, EmbeddingStatus embedding) {
        if (spec.replicas() == 0) {
            c.set(Conditions.READY, false, "ScaledToZero", "spec.replicas is 0");
        } else if (ready >= spec.replicas()) {
            c.set(Conditions.READY, true, "AllReplicasReady",
                    ready + "/" + spec.replicas() + " pods of the current template ready; MCP at " + endpoint);
        } else {
            c.set(Conditions.READY, false, "Progressing",
                    ready + "/" + spec.replicas() + " pods of the current template ready"
                            + (embedding == null ? "" : "; " + EmbeddingReader.describe(embedding)));
        }
    }

    private static void calibrated(Conditions c, CheckedSpec spec, RerankStatus r, List<String> refused) {
        if (!spec.reranks()) {
            c.set(Conditions.CALIBRATED, true, "NoReranker",
                    "no reranker configured: nothing to measure, the rerank concurrency is unused");
        } else if (RerankStatus.BASIS_MEASURED.equals(r.basis)) {
            c.set(Conditions.CALIBRATED, true, "Measured", "measured by pod " + r.measuredBy + " at " + r.measuredAt
                    + " (" + r.method + "): resident " + Mebibytes.text(r.residentBytes) + ", " + Mebibytes.text(r.perRunBytes) + " per rerank run");
        } else if (!refused.isEmpty()) {
            c.set(Conditions.CALIBRATED, false, "ImplausibleMeasurement", "refused: " + String.join("; ", refused)
                    + (RerankStatus.BASIS_PREVIOUS.equals(r.basis) ? "; using the measurement of an earlier rollout"
                    : "; concurrency 1 until a pod reports a plausible /calibration"));
        } else if (RerankStatus.BASIS_PREVIOUS.equals(r.basis)) {
            c.set(Conditions.CALIBRATED, false, "AwaitingNewPods", "computed from the measurement of an earlier rollout"
                    + " (same reranker, taken under " + Mebibytes.text(r.measuredUnderLimitBytes) + "); waiting for the new pods' own");
        } else {
            c.set(Conditions.CALIBRATED, false, "AwaitingMeasurement",
                    "no measurement yet: concurrency 1 until a ready pod reports /calibration");
        }
    }

    /** Without spec.database: no condition. No pod answered: the last word stands. */
    private static void database(Conditions c, CheckedSpec spec, List<DatabaseReader.PodDatabase> databases) {
        if (spec.resource().getSpec().database == null) {
            c.remove(Conditions.DATABASE_REACHABLE);
            return;
        }
        if (databases.isEmpty()) {
            return;
        }
        List<String> down = databases.stream().filter(d -> !d.state().connected())
                .map(d -> d.pod() + (d.state().unreachableSince() == null ? "" : " (since " + d.state().unreachableSince() + ")"))
                .toList();
        if (down.isEmpty()) {
            c.set(Conditions.DATABASE_REACHABLE, true, "Connected", databases.size() + " pod(s) report the database connected");
        } else {
            c.set(Conditions.DATABASE_REACHABLE, false, "Unreachable", "database unreachable from " + String.join(", ", down)
                    + "; they keep serving the last good index and stay ready");
        }
    }

    private static void memory(Conditions c, CheckedSpec spec, RerankPlanner.Plan plan) {
        if (!plan.memoryInsufficient()) {
            c.set(Conditions.MEMORY_INSUFFICIENT, false, "Fits", plan.safe() == null ? "not measured yet"
                    : plan.safe().byMemory() + " rerank run(s) fit in the budget of " + Mebibytes.text(plan.safe().budgetBytes()));
            return;
        }
        RerankStatus r = plan.status();
        long needed = (long) Math.ceil((r.residentBytes + r.perRunBytes) * 100.0 / (100 - spec.headroomPercent()));
        c.set(Conditions.MEMORY_INSUFFICIENT, true, "OneRunDoesNotFit", "limit " + Mebibytes.text(spec.memoryBytes()) + " less "
                + spec.headroomPercent() + " % headroom leaves " + Mebibytes.text(plan.safe().budgetBytes()) + " beside the resident "
                + Mebibytes.text(r.residentBytes) + ", and one rerank run costs " + Mebibytes.text(r.perRunBytes)
                + "; running with concurrency 1 anyway. Raise spec.resources.memory to at least " + Mebibytes.ceil(needed) + "Mi");
    }

    private static void clamped(Conditions c, CheckedSpec spec, RerankPlanner.Plan plan) {
        if (plan.effective().clamped()) {
            c.set(Conditions.CONCURRENCY_CLAMPED, true, "ClampedToSafe", "requested " + spec.requested() + ", safe "
                    + plan.safe().safe() + " (by memory " + plan.safe().byMemory() + ", by CPU "
                    + (plan.safe().byCpu() == null ? "no limit" : plan.safe().byCpu()) + "): running "
                    + plan.effective().concurrency() + "; spec.rerank.force: true runs the requested value");
        } else if (forcedAboveSafe(spec, plan)) {
            c.set(Conditions.CONCURRENCY_CLAMPED, false, "Forced", "running the forced " + spec.requested()
                    + " above the safe " + plan.safe().safe() + " (spec.rerank.force)");
        } else {
            c.set(Conditions.CONCURRENCY_CLAMPED, false, "WithinSafe", "running " + plan.effective().concurrency());
        }
    }

    /** An expert's forced fixed value runs above what the measurement calls safe. */
    private static boolean forcedAboveSafe(CheckedSpec spec, RerankPlanner.Plan plan) {
        return spec.request().force() && plan.safe() != null && spec.request().fixed() > plan.safe().safe();
    }

    private static List<Announcement> announce(RagSearchStatus old, RagSearchStatus next, CheckedSpec spec, RerankPlanner.Plan plan) {
        List<Announcement> said = new ArrayList<>();
        RerankStatus before = old == null ? null : old.rerank;
        RerankStatus now = next.rerank;
        if (RerankStatus.BASIS_MEASURED.equals(now.basis) && (before == null
                || !RerankStatus.BASIS_MEASURED.equals(before.basis) || !Objects.equals(before.measuredAt, now.measuredAt)
                || !Objects.equals(before.calibrationKey, now.calibrationKey))) {
            said.add(Announcement.normal("Calibrated", message(next, Conditions.CALIBRATED)));
        }
        if (before == null || !Objects.equals(before.effective, now.effective)) {
            String why = now.safe == null ? "no measurement yet" : "safe " + now.safe + " from " + now.basis
                    + " (resident " + Mebibytes.text(now.residentBytes) + ", per run " + Mebibytes.text(now.perRunBytes) + ", limit "
                    + Mebibytes.text(now.memoryLimitBytes) + ", headroom " + now.headroomPercent + " %, by memory " + now.byMemory
                    + ", by CPU " + (now.byCpu == null ? "no limit" : now.byCpu) + ")";
            said.add(Announcement.normal("ConcurrencyChanged", "rerank concurrency "
                    + (before == null || before.effective == null ? "set to " : before.effective + " → ") + now.effective
                    + " (requested " + now.requested + "; " + why + "); pods roll with RAGSEARCH_RERANK_CONCURRENCY="
                    + now.effective));
        }
        warnOnTransition(said, old, next, Conditions.MEMORY_INSUFFICIENT, "MemoryInsufficient");
        warnOnTransition(said, old, next, Conditions.CONCURRENCY_CLAMPED, "ConcurrencyClamped");
        if (forcedAboveSafe(spec, plan)
                && (before == null || !Objects.equals(before.safe, now.safe) || !Objects.equals(before.effective, now.effective))) {
            said.add(Announcement.warning("ConcurrencyForced", message(next, Conditions.CONCURRENCY_CLAMPED)));
        }
        if (Conditions.isTrue(next.conditions, Conditions.READY) && !Conditions.isTrue(old == null ? null : old.conditions, Conditions.READY)) {
            said.add(Announcement.normal("Ready", message(next, Conditions.READY)));
        }
        return said;
    }

    private static void warnOnTransition(List<Announcement> said, RagSearchStatus old, RagSearchStatus next, String type, String reason) {
        String message = message(next, type);
        if (Conditions.isTrue(next.conditions, type) && changed(old, type, true, message)) {
            said.add(Announcement.warning(reason, message));
        }
    }

    private static boolean changed(RagSearchStatus old, String type, boolean status, String message) {
        return Conditions.find(old == null ? null : old.conditions, type)
                .map(c -> !c.getStatus().equals(status ? "True" : "False") || !Objects.equals(c.getMessage(), message))
                .orElse(true);
    }

    private static String message(RagSearchStatus s, String type) {
        return Conditions.find(s.conditions, type).map(Condition::getMessage).orElse("");
    }

    private static RagSearchStatus copyOf(RagSearchStatus old) {
        RagSearchStatus s = new RagSearchStatus();
        if (old != null) {
            s.rerank = old.rerank;
            s.replicas = old.replicas;
            s.selector = old.selector;
            s.readyReplicas = old.readyReplicas;
            s.endpoint = old.endpoint;
            s.verification = old.verification;
            s.embedding = old.embedding;
        }
        return s;
    }

    private static long generation(RagSearch r) {
        return r.getMetadata().getGeneration() == null ? 0 : r.getMetadata().getGeneration();
    }
}
