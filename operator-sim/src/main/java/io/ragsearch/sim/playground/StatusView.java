package io.ragsearch.sim.playground;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.ragsearch.operator.budget.Mebibytes;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.RerankStatus;

import java.util.List;
import java.util.Locale;

/** A RagSearch's state as a few readable lines: conditions, the budget numbers, the pods. */
final class StatusView {
    private StatusView() {
    }

    static String render(RagSearch r, List<Pod> pods) {
        StringBuilder b = new StringBuilder();
        String name = r.getMetadata().getNamespace() + "/" + r.getMetadata().getName();
        if (r.getStatus() == null) {
            return b.append(name).append(": waiting for the operator\n").toString();
        }
        var s = r.getStatus();
        b.append(name).append("  generation ").append(r.getMetadata().getGeneration())
                .append(" (observed ").append(s.observedGeneration).append(")\n");
        for (Condition c : s.conditions) {
            b.append(String.format(Locale.ROOT, "  %-19s %-5s %-19s %s%n", c.getType(), c.getStatus(), c.getReason(), c.getMessage()));
        }
        RerankStatus k = s.rerank;
        if (k != null) {
            b.append("  rerank concurrency ").append(k.effective).append(" (requested ").append(k.requested)
                    .append(", safe ").append(k.safe == null ? "-" : k.safe).append(", basis ").append(k.basis).append(")\n");
            if (k.perRunBytes != null) {
                b.append(String.format(Locale.ROOT,
                        "  budget = %d MiB × (1 − %d %%) − resident %d MiB = %d MiB; per run %d MiB → by memory %d, by CPU %s%n",
                        Mebibytes.of(k.memoryLimitBytes), k.headroomPercent, Mebibytes.of(k.residentBytes), Mebibytes.of(k.budgetBytes),
                        Mebibytes.of(k.perRunBytes), k.byMemory, k.byCpu == null ? "no limit" : k.byCpu.toString()));
                b.append("  measured by ").append(k.measuredBy).append(" (").append(k.method).append(") at ").append(k.measuredAt)
                        .append(k.measuredUnderLimitBytes == null ? "" : " under " + Mebibytes.of(k.measuredUnderLimitBytes) + " MiB").append('\n');
            }
        }
        b.append("  endpoint (in a cluster) ").append(s.endpoint).append('\n');
        var v = s.verification;
        if (v != null) {
            // The candidate's progress as it happens: the Verified condition above carries the step.
            b.append(String.format(Locale.ROOT, "  verification %s, version %s%s%s%n", v.state, v.version,
                    v.checksMillis == null ? "" : ", checks " + v.checksMillis + " ms (" + v.passed + " passed, " + v.failed + " failed)",
                    v.heldBackVersion == null ? "" : ", held back: " + v.heldBackVersion));
        }
        for (Pod p : pods) {
            var cs = p.getStatus() == null || p.getStatus().getContainerStatuses() == null || p.getStatus().getContainerStatuses().isEmpty()
                    ? null : p.getStatus().getContainerStatuses().get(0);
            String state = cs == null ? "pending" : cs.getState() != null && cs.getState().getWaiting() != null
                    ? cs.getState().getWaiting().getReason() : cs.getState() != null && cs.getState().getRunning() != null ? "running" : "?";
            b.append(String.format(Locale.ROOT, "  pod %-34s %-12s %-10s ready=%-5s restarts=%d%s%n", p.getMetadata().getName(),
                    p.getStatus() == null ? "-" : p.getStatus().getPodIP(), state, cs != null && Boolean.TRUE.equals(cs.getReady()),
                    cs == null ? 0 : cs.getRestartCount(),
                    cs != null && cs.getLastState() != null && cs.getLastState().getTerminated() != null
                            ? " last exit " + cs.getLastState().getTerminated().getReason() : ""));
        }
        return b.toString();
    }
}
