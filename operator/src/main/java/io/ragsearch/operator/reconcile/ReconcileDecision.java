package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.Pod;
import io.ragsearch.operator.manifest.Manifests;
import io.ragsearch.operator.metrics.OperatorMetrics;
import io.ragsearch.operator.model.RagSearchStatus;
import io.ragsearch.operator.spec.CheckedSpec;

import java.time.Duration;
import java.util.List;

/**
 * What one reconcile intends, decided by {@link Decider} from an {@link Observation} alone and
 * carried out by {@link ReconcileActions}: the writes and the new status.
 */
sealed interface ReconcileDecision permits ReconcileDecision.Refuse, ReconcileDecision.Apply {

    /** Remove the finalizer an earlier version added (see {@link RagSearchReconciler#LEGACY_FINALIZER}). */
    boolean dropLegacyFinalizer();

    /**
     * The end of a reconcile: the status to write, the events that tell what changed, the decision
     * the operator's metrics show, and when to look again.
     */
    record Conclusion(RagSearchStatus status, List<Announcement> events, OperatorMetrics.Decision metric, Duration again) {
    }

    /** A spec that failed its checks: its status says why, and no dependent is touched. */
    record Refuse(boolean dropLegacyFinalizer, Conclusion conclusion) implements ReconcileDecision {
    }

    /**
     * A valid spec: the objects to apply and the calls to make. Two of those calls answer back (a candidate's checks
     * may not start, the pods of an in-place resize get as far as they get): the parts of the status that tell them
     * are finished from what they report ({@link Decider#conclude}), the rest is here.
     *
     * @param spec         the checked spec, with its calibration key
     * @param rendered     what the manifests were rendered from: the spec, or under the running template's limits while
     *                     the pods are resized in place
     * @param plan         the rerank decision under {@code rendered}
     * @param resize       in place or a roll, for a change of limits
     * @param resizePods   the serving pods of the current template, moved one step towards the spec's limits when the
     *                     resize is in place (empty otherwise)
     * @param manifests    what the dependents apply; its config hash is the serving template's, computed once
     * @param version      the spec's version (the candidate's checks are started for it)
     * @param promotion    the verification's decision, with the checks to start if any
     * @param ready        ready serving pods of the current template
     * @param databaseDown a pod reports its database unreachable (look again soon: the status must show the end)
     * @param status       the new status but for the verification and the resize
     * @param events       the events of that status, in order
     */
    record Apply(boolean dropLegacyFinalizer, CheckedSpec spec, CheckedSpec rendered, RerankPlanner.Plan plan,
                 ResizePlanner.Decision resize, List<Pod> resizePods, Manifests manifests, String version,
                 PromotionPlanner.Decision promotion, int ready, boolean databaseDown, RagSearchStatus status,
                 List<Announcement> events) implements ReconcileDecision {
    }

    /**
     * What the answering writes reported: the verification's decision after its checks were started (or could not
     * be), and how far the pods of an in-place resize got (null when nothing was resized).
     */
    record Reported(PromotionPlanner.Decision promotion, InPlaceResize.Progress progress) {
    }
}
