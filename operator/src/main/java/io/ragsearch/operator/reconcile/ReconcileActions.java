package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.ragsearch.operator.manifest.Manifests;
import io.ragsearch.operator.metrics.OperatorMetrics;
import io.ragsearch.operator.model.RagSearch;

/**
 * The act step of a reconcile: every write a {@link ReconcileDecision} asks for, in one place and
 * in this order. The finalizer an earlier version added goes first; for a valid spec the
 * candidate's checks are started, the dependents applied (JOSDK's workflow, only for a valid spec:
 * an invalid one leaves the running Deployment as it was) and the pods of an in-place resize moved
 * one step; then the events, the metrics, and the status, which JOSDK patches from the returned
 * control.
 */
final class ReconcileActions {
    private final KubernetesClient client;
    private final CandidateChecks candidates;
    private final InPlaceResize resizes;
    private final EventRecorder events;
    private final OperatorMetrics metrics;
    private final RagSearchReconciler.Settings settings;

    ReconcileActions(KubernetesClient client, CandidateChecks candidates, InPlaceResize resizes, EventRecorder events,
                     OperatorMetrics metrics, RagSearchReconciler.Settings settings) {
        this.client = client;
        this.candidates = candidates;
        this.resizes = resizes;
        this.events = events;
        this.metrics = metrics;
        this.settings = settings;
    }

    UpdateControl<RagSearch> act(Observation seen, ReconcileDecision decision, Context<RagSearch> context) {
        RagSearch resource = seen.resource();
        if (decision.dropLegacyFinalizer()) {
            client.resource(resource).edit(r -> {
                r.getMetadata().getFinalizers().remove(RagSearchReconciler.LEGACY_FINALIZER);
                return r;
            });
        }
        ReconcileDecision.Conclusion done = decision instanceof ReconcileDecision.Apply apply ? apply(seen, apply, context)
                : ((ReconcileDecision.Refuse) decision).conclusion();
        events.announce(resource, done.events());
        resource.setStatus(done.status());
        metrics.decided(resource.getMetadata().getNamespace(), resource.getMetadata().getName(), done.metric());
        return UpdateControl.patchStatus(resource).rescheduleAfter(done.again());
    }

    /** The writes of a valid spec, and the status they conclude. */
    private ReconcileDecision.Conclusion apply(Observation seen, ReconcileDecision.Apply decided, Context<RagSearch> context) {
        PromotionPlanner.Decision promotion = candidates.start(decided.promotion(), seen.cluster().pods(), decided.spec(),
                decided.version());
        context.managedWorkflowAndDependentResourceContext().put(Manifests.CONTEXT_KEY, decided.manifests());
        context.managedWorkflowAndDependentResourceContext().reconcileManagedWorkflow()
                .throwAggregateExceptionIfErrorsPresent();
        InPlaceResize.Progress progress = decided.resize().inPlace() ? resizes.step(decided.spec(), decided.resizePods()) : null;
        return Decider.conclude(seen, decided, new ReconcileDecision.Reported(promotion, progress), settings);
    }
}
