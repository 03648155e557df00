package io.ragsearch.operator.reconcile;

import io.ragsearch.contract.budget.RerankBudget;
import io.ragsearch.operator.model.RerankStatus;
import io.ragsearch.operator.spec.CheckedSpec;

import java.util.List;

/**
 * The tuning loop's decision, free of I/O: which measurement to trust, and the concurrency it
 * gives under the current limits.
 *
 * <ul>
 *   <li>Measurements of the current pods (same calibration key) win; within one key the stored
 *       value only ever moves to a more conservative one, so noise cannot make pods roll back
 *       and forth.</li>
 *   <li>Without those, the last measurement is reused if it was taken with the same reranker
 *       (same source, same digest) — this is what re-tunes at once on a memory-limit change,
 *       before the new pods have measured themselves.</li>
 *   <li>Without any: 1.</li>
 * </ul>
 * A measurement that cannot be true ({@link MeasuredCost#implausible()}) is refused and listed
 * in the plan, whatever its source.
 */
public final class RerankPlanner {

    /** The decision: the status block to store and the numbers behind it. {@code safe} is null without a basis. */
    public record Plan(RerankStatus status, RerankBudget.Safe safe, RerankBudget.Effective effective, List<String> refused) {
        public boolean measuredByCurrentPods() {
            return RerankStatus.BASIS_MEASURED.equals(status.basis);
        }

        public boolean memoryInsufficient() {
            return safe != null && safe.memoryInsufficient();
        }
    }

    /** A pod of the current rollout and what it reported. */
    public record PodMeasurement(String pod, MeasuredCost cost) {
    }

    private RerankPlanner() {
    }

    /** @param fresh what the ready pods labelled with the spec's calibration key measured */
    public static Plan plan(CheckedSpec spec, RerankStatus stored, List<PodMeasurement> fresh) {
        String calibrationKey = spec.calibrationKey();
        RerankBudget.Limits limits = new RerankBudget.Limits(spec.memoryBytes(), spec.cpuMillis(), spec.headroomPercent());
        RerankStatus next = new RerankStatus();
        next.requested = spec.requested();
        next.memoryLimitBytes = spec.memoryBytes();
        next.cpuLimitMillis = spec.cpuMillis();
        next.headroomPercent = spec.headroomPercent();
        next.rerankerSource = spec.rerankerSource();
        next.calibrationKey = calibrationKey;

        MeasuredCost basis = null;
        String kind = RerankStatus.BASIS_NONE;
        List<String> refused = new java.util.ArrayList<>();
        if (spec.reranks()) {
            MeasuredCost current = fresh.stream()
                    .filter(m -> {
                        m.cost().implausible().ifPresent(why -> refused.add("pod " + m.pod() + ": " + why));
                        return m.cost().implausible().isEmpty();
                    })
                    .map(PodMeasurement::cost)
                    .filter(c -> spec.expectedRerankerDigest() == null || spec.expectedRerankerDigest().equals(c.rerankerDigest()))
                    .reduce((a, b) -> MeasuredCost.moreConservative(a, b, limits))
                    .orElse(null);
            MeasuredCost previous = reusable(spec, stored).orElse(null);
            boolean sameKey = stored != null && calibrationKey.equals(stored.calibrationKey);
            if (current != null) {
                kind = RerankStatus.BASIS_MEASURED;
                basis = previous != null && sameKey && RerankStatus.BASIS_MEASURED.equals(stored.basis)
                        ? MeasuredCost.moreConservative(previous, current, limits) : current;
            } else if (previous != null) {
                basis = previous;
                kind = sameKey ? stored.basis : RerankStatus.BASIS_PREVIOUS;
            }
        }
        next.basis = kind;
        RerankBudget.Safe safe = null;
        if (basis != null) {
            basis.writeTo(next);
            safe = RerankBudget.safe(limits, basis.measurement());
            next.safe = safe.safe();
            next.budgetBytes = safe.budgetBytes();
            next.byMemory = safe.byMemory();
            next.byCpu = safe.byCpu();
        }
        RerankBudget.Effective effective = spec.reranks()
                ? RerankBudget.effective(spec.request(), safe)
                : new RerankBudget.Effective(1, false);
        next.effective = effective.concurrency();
        return new Plan(next, safe, effective, List.copyOf(refused));
    }

    /** The stored measurement, if it was taken with the reranker the spec names now. */
    private static java.util.Optional<MeasuredCost> reusable(CheckedSpec spec, RerankStatus stored) {
        if (stored == null || stored.rerankerSource == null || !stored.rerankerSource.equals(spec.rerankerSource())) {
            return java.util.Optional.empty();
        }
        if (spec.expectedRerankerDigest() != null && !spec.expectedRerankerDigest().equals(stored.rerankerDigest)) {
            return java.util.Optional.empty();
        }
        return MeasuredCost.from(stored).filter(m -> m.implausible().isEmpty());
    }
}
