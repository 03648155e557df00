package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.ragsearch.operator.manifest.AdminAccess;
import io.ragsearch.operator.manifest.CandidateObjects;
import io.ragsearch.operator.manifest.ManifestFactory;
import io.ragsearch.operator.manifest.Manifests;
import io.ragsearch.operator.metrics.OperatorMetrics;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.RagSearchStatus;
import io.ragsearch.operator.model.RerankStatus;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.spec.CheckedSpec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The decide step of a reconcile, free of I/O: from an {@link Observation}, what to apply and the
 * new status ({@link ReconcileDecision}), through the planners ({@link ResizePlanner},
 * {@link RerankPlanner}, {@link PromotionPlanner}), the manifests and {@link StatusComposer}; and,
 * once the writes that answer back have reported, the rest of the status ({@link #conclude}).
 */
final class Decider {
    private static final KubernetesSerialization COPIES = new KubernetesSerialization();

    private Decider() {
    }

    /** A spec under some limits, its rerank decision and the manifests made of both. */
    private record Rendering(CheckedSpec spec, RerankPlanner.Plan plan, Manifests manifests) {
    }

    static ReconcileDecision decide(Observation seen, RagSearchReconciler.Settings settings) {
        RagSearch resource = seen.resource();
        boolean dropFinalizer = resource.getMetadata().getFinalizers() != null
                && resource.getMetadata().getFinalizers().contains(RagSearchReconciler.LEGACY_FINALIZER);
        if (seen.cluster() == null) {
            return refuse(seen, dropFinalizer, settings);
        }
        Observation.Cluster cluster = seen.cluster();
        CheckedSpec spec = cluster.spec();
        RagSearchStatus old = seen.previous();
        RolloutPods pods = cluster.pods();
        // A change of limits alone is resized in place where the cluster can: the template then keeps its limits (a roll otherwise).
        Rendering asRunning = cluster.limitsDiffer() ? render(cluster.atTemplate(), old, cluster, settings.adminAccess()) : null;
        ResizePlanner.Decision resize = resizeDecision(cluster, old, asRunning);
        CheckedSpec rendered = resize.inPlace() ? cluster.atTemplate() : spec;
        Rendering rendering = asRunning != null && asRunning.spec() == rendered ? asRunning
                : render(rendered, old, cluster, settings.adminAccess());
        Manifests built = rendering.manifests();
        // With spec.verification a new version waits on its candidate: the serving objects may stay as they run.
        PromotionPlanner.Decision promotion = PromotionPlanner.decide(new PromotionPlanner.Inputs(spec.name(), spec.verification(),
                built.version(), cluster.running() == null ? PromotionPlanner.Running.NONE
                : new PromotionPlanner.Running(true, Manifests.version(cluster.running())), old == null ? null : old.verification,
                spec.verification() == null ? null : cluster.candidates().get(built.version()),
                !pods.readyWith(Labels.LABEL_NAME, Labels.SERVING_NAME).isEmpty(), seen.now()));
        Manifests manifests = desired(spec, built, promotion, cluster);
        String configHash = manifests.configHash();
        int ready = pods.readyOfTemplate(configHash);
        StatusComposer.Composed status = StatusComposer.valid(resource, old, spec, rendering.plan(), ready, cluster.databases(),
                cluster.embedding(), seen.now());
        List<Pod> resizePods = resize.inPlace() ? pods.pods().stream().filter(p -> InPlaceResize.ofTemplate(p, configHash)).toList()
                : List.of();
        boolean databaseDown = cluster.databases().stream().anyMatch(d -> !d.state().connected());
        return new ReconcileDecision.Apply(dropFinalizer, spec, rendered, rendering.plan(), resize, resizePods, manifests, built.version(),
                promotion, ready, databaseDown, status.status(), status.events());
    }

    /**
     * The status of a valid spec finished from what the answering writes reported: the verification (its checks may
     * not have started), status.resize and its events, what the pods run; and when to look again.
     */
    static ReconcileDecision.Conclusion conclude(Observation seen, ReconcileDecision.Apply decided, ReconcileDecision.Reported reported,
                                                 RagSearchReconciler.Settings settings) {
        RagSearch resource = seen.resource();
        RagSearchStatus old = seen.previous();
        CheckedSpec spec = decided.spec();
        RerankPlanner.Plan plan = decided.plan();
        RagSearchStatus next = COPIES.clone(decided.status());
        List<Announcement> events = new ArrayList<>(decided.events());
        events.addAll(StatusComposer.verification(resource, next, reported.promotion(), seen.now()));
        InPlaceResize.Progress progress = reported.progress();
        events.addAll(StatusComposer.resize(next, old == null ? null : old.resize, decided.resize(), spec, decided.rendered(), progress,
                InPlaceResize.specWrittenAt(resource, seen.now())));
        boolean resizing = progress != null && (progress.pending() || progress.refused() != null);
        // What the pods run, which after an in-place resize is not what their template says: the Concurrency column, the gauge.
        int podsRun = InPlaceResize.running(next.resize, plan.effective().concurrency());
        next.rerank.running = podsRun;
        var metric = new OperatorMetrics.Decision(podsRun, plan.safe() == null ? null : plan.safe().safe(), spec.replicas(),
                decided.ready(), true);
        // While a pod's database is down, look again soon: the status must show the outage's end.
        boolean settled = !resizing && !decided.databaseDown() && !reported.promotion().pending() && decided.ready() >= spec.replicas()
                && (!spec.reranks() || plan.measuredByCurrentPods());
        Duration again = settled ? settings.settled() : resizing && settings.pending().compareTo(InPlaceResize.LOOK_AGAIN) > 0
                ? InPlaceResize.LOOK_AGAIN : settings.pending();
        return new ReconcileDecision.Conclusion(next, List.copyOf(events), metric, again);
    }

    private static ReconcileDecision.Refuse refuse(Observation seen, boolean dropFinalizer, RagSearchReconciler.Settings settings) {
        StatusComposer.Composed composed = StatusComposer.invalid(seen.resource(), seen.previous(), seen.checked().problems(), seen.now());
        RagSearchStatus s = composed.status();
        var metric = new OperatorMetrics.Decision(s.rerank == null || s.rerank.running == null ? 1 : s.rerank.running,
                s.rerank == null ? null : s.rerank.safe, s.replicas == null ? 0 : s.replicas, s.readyReplicas == null ? 0 : s.readyReplicas,
                false);
        // A missing Secret or ConfigMap may appear without the RagSearch changing: look again.
        return new ReconcileDecision.Refuse(dropFinalizer, new ReconcileDecision.Conclusion(s, composed.events(), metric, settings.pending()));
    }

    /** The rerank decision under these limits (from what the pods labelled with their key measured) and the manifests it gives. */
    private static Rendering render(CheckedSpec spec, RagSearchStatus old, Observation.Cluster cluster, AdminAccess admin) {
        RerankStatus stored = old == null ? null : old.rerank;
        RerankPlanner.Plan plan = RerankPlanner.plan(spec, stored, cluster.measuredUnder(spec));
        return new Rendering(spec, plan, ManifestFactory.build(spec, plan.effective().concurrency(), cluster.secretsDigest(), admin));
    }

    /**
     * In place or roll (ResizePlanner) when the spec's limits differ from the running template's:
     * in place needs the template rendered under its own limits to be the running one (nothing
     * else changed) and its rollout finished. Limits back at the template's while its pods run at
     * others (resized in place earlier) are in place too.
     *
     * @param asRunning the spec rendered under the running template's limits, null when they are the spec's
     */
    private static ResizePlanner.Decision resizeDecision(Observation.Cluster cluster, RagSearchStatus old, Rendering asRunning) {
        CheckedSpec spec = cluster.spec();
        Deployment running = cluster.running();
        String runningHash = running == null ? null : Manifests.configHash(running);
        List<Pod> serving = cluster.pods().pods().stream().filter(InPlaceResize::serving).toList();
        boolean rolloutComplete = serving.stream().allMatch(p -> InPlaceResize.ofTemplate(p, runningHash));
        boolean podsAtOtherLimits = serving.stream().filter(p -> InPlaceResize.ofTemplate(p, runningHash))
                .anyMatch(p -> !InPlaceResize.limits(spec).equals(InPlaceResize.podLimits(p)))
                || InPlaceResize.unfinished(old == null ? null : old.resize, spec.memoryBytes());
        boolean onlyLimits = asRunning == null || asRunning.manifests().configHash().equals(runningHash);
        var measured = old == null ? null : old.rerank;
        boolean sameTarget = old != null && InPlaceResize.sameTarget(old.resize, spec.memoryBytes(), spec.cpuMillis());
        String refused = sameTarget ? old.resize.refused : null;
        return ResizePlanner.decide(new ResizePlanner.Inputs(InPlaceResize.limits(spec),
                running == null ? null : InPlaceResize.limits(cluster.atTemplate()), onlyLimits,
                asRunning != null && onlyLimits ? cluster.support() : new ResizePlanner.Support(false, "-"), refused,
                measured == null ? null : measured.residentBytes, measured == null ? null : measured.perRunBytes, spec.headroomPercent(),
                rolloutComplete, podsAtOtherLimits));
    }

    /** What the dependents apply: the spec's manifests or the running template held, and the candidate while one is wanted. */
    private static Manifests desired(CheckedSpec spec, Manifests built, PromotionPlanner.Decision decision, Observation.Cluster cluster) {
        Manifests serving = decision.serving() == PromotionPlanner.Serving.SPEC ? built
                : built.holding(cluster.runningConfig(), cluster.running());
        return decision.candidateWanted() ? serving.withCandidate(CandidateObjects.build(spec, built)) : serving;
    }
}
