package io.ragsearch.operator.spec;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.ragsearch.contract.budget.RerankBudget;
import io.ragsearch.contract.settings.SettingsRules;
import io.ragsearch.operator.model.Rerank;
import io.ragsearch.operator.model.SchemaBounds;

import java.util.List;

/** spec.rerank: the concurrency asked for (auto or fixed, forced or not) and the budget's parameters. */
final class RerankCheck {

    private RerankCheck() {
    }

    static CheckedSpec.RerankSettings check(Rerank rerank, List<String> problems) {
        if (rerank == null) {
            return new CheckedSpec.RerankSettings(RerankBudget.Request.auto(), "auto", SpecDefaults.HEADROOM_PERCENT,
                    SpecDefaults.INTRA_OP_THREADS);
        }
        RerankBudget.Request request = RerankBudget.Request.auto();
        String requested = "auto";
        boolean force = Boolean.TRUE.equals(rerank.force);
        Integer fixed = rerank.concurrency == null ? null : fixedConcurrency(rerank.concurrency, problems);
        if (fixed != null) {
            request = new RerankBudget.Request(fixed, force);
            requested = Integer.toString(fixed);
        }
        if (force && request.fixed() == null) {
            problems.add("spec.rerank.force needs a fixed spec.rerank.concurrency (it forces a number, not auto)");
        }
        int headroom = rerank.headroomPercent == null ? SpecDefaults.HEADROOM_PERCENT : rerank.headroomPercent;
        if (headroom < 0 || headroom > SchemaBounds.HEADROOM_PERCENT_MAX) {
            problems.add("spec.rerank.headroomPercent must be in [0, " + SchemaBounds.HEADROOM_PERCENT_MAX + "], got " + headroom);
        }
        int intraOp = rerank.intraOpThreads == null ? SpecDefaults.INTRA_OP_THREADS : rerank.intraOpThreads;
        String threads = SettingsRules.intraOpThreads("spec.rerank.intraOpThreads", intraOp);
        if (threads != null) {
            problems.add(threads);
        }
        if (rerank.queueTimeoutMillis != null && (rerank.queueTimeoutMillis < 1 || rerank.queueTimeoutMillis > SchemaBounds.QUEUE_TIMEOUT_MAX_MILLIS)) {
            problems.add("spec.rerank.queueTimeoutMillis must be in [1, " + SchemaBounds.QUEUE_TIMEOUT_MAX_MILLIS + "], got "
                    + rerank.queueTimeoutMillis);
        }
        return new CheckedSpec.RerankSettings(request, requested, headroom, intraOp);
    }

    /** A whole number of at least 1, or null for auto (or a problem). */
    private static Integer fixedConcurrency(IntOrString c, List<String> problems) {
        if (c.getIntVal() != null) {
            if (c.getIntVal() < 1) {
                problems.add("spec.rerank.concurrency must be auto or at least 1, got " + c.getIntVal());
                return null;
            }
            return c.getIntVal();
        }
        String s = c.getStrVal() == null ? "" : c.getStrVal();
        if (s.equals("auto")) {
            return null;
        }
        // The CRD's rule takes a string only when it is exactly auto: a quoted number is refused
        // there, so it is refused here too (render would otherwise pass what the API server refuses).
        if (s.strip().matches("[0-9]+")) {
            problems.add("spec.rerank.concurrency must be auto or a whole number of at least 1, got the string '" + s
                    + "': write the number without quotes");
            return null;
        }
        problems.add("spec.rerank.concurrency must be auto or a whole number of at least 1, got '" + s + "'");
        return null;
    }
}
