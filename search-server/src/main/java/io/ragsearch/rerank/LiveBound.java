package io.ragsearch.rerank;

import io.ragsearch.contract.budget.RerankBudget;
import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.contract.calibration.LiveRerank;
import io.ragsearch.contract.settings.ServerSettings;

/**
 * The decisions of a live re-tune, pure: which memory and CPU limits the rerank bound follows,
 * and the concurrency for them — the contract's one formula ({@link RerankBudget}), the one the operator
 * computed the starting value with, applied to this server's own measurement.
 */
public final class LiveBound {

    private LiveBound() {
    }

    /** The limit the bound is computed for, and where it comes from (LiveRerank's sources). */
    public record Target(Long bytes, String source) {
    }

    /**
     * The cgroup's limit, unless a lower one was announced ahead of a decrease: the bound must be
     * the lower one's before the cgroup shrinks. An announced limit above the cgroup's changes
     * nothing (permits are never raised past what the process's own limit allows).
     */
    public static Target target(Long cgroupBytes, Long announcedBytes, boolean changedSinceStart) {
        if (announcedBytes != null && (cgroupBytes == null || announcedBytes < cgroupBytes)) {
            return new Target(announcedBytes, LiveRerank.SOURCE_ANNOUNCED);
        }
        return new Target(cgroupBytes, changedSinceStart ? LiveRerank.SOURCE_CGROUP : LiveRerank.SOURCE_START);
    }

    /**
     * The CPU limit the bound follows: the cgroup's once it differs from what the cgroup said at the
     * start (a resize; "none" too, when the limit was lifted), the operator's before — it computed
     * the starting value with it, and where no cgroup limit can be read it is all there is.
     */
    public static Long cpuMillis(Long cgroupMillis, Long startCgroupMillis, Integer operatorMillis) {
        if (!java.util.Objects.equals(cgroupMillis, startCgroupMillis)) {
            return cgroupMillis;
        }
        return operatorMillis == null ? null : operatorMillis.longValue();
    }

    /** The concurrency under {@code limitBytes} and the operator's CPU limit, by the policy it wrote (null fields: its defaults). */
    public static RerankBudget.Effective concurrency(Calibration measured, long limitBytes, ServerSettings.Retune policy) {
        return concurrency(measured, limitBytes, policy.cpuLimitMillis() == null ? null : policy.cpuLimitMillis().longValue(), policy);
    }

    /** The concurrency under {@code limitBytes} and {@code cpuMillis} (null: no CPU limit), by the operator's policy. */
    public static RerankBudget.Effective concurrency(Calibration measured, long limitBytes, Long cpuMillis, ServerSettings.Retune policy) {
        int headroom = policy.headroomPercent() == null ? RerankBudget.DEFAULT_HEADROOM_PERCENT : policy.headroomPercent();
        Long cpu = cpuMillis;
        RerankBudget.Safe safe = RerankBudget.safe(new RerankBudget.Limits(limitBytes, cpu, headroom),
                new RerankBudget.Measurement(measured.residentBytes(), measured.perRunBytes(), Math.max(1, measured.intraOpThreads())));
        return RerankBudget.effective(new RerankBudget.Request(policy.fixed(), Boolean.TRUE.equals(policy.force())), safe);
    }
}
