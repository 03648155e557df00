package io.ragsearch.verification;

import io.ragsearch.contract.verification.Verification;

/** The verify runner's report in the contract's form, the one the operator reads. */
final class ReportMapping {
    private ReportMapping() {
    }

    static Verification finished(VerifyReport report, String startedAt, String finishedAt) {
        var rows = report.checks().stream().map(ReportMapping::row).toList();
        Verification.State state = report.allPassed() && !rows.isEmpty() ? Verification.State.PASSED : Verification.State.FAILED;
        return new Verification(state, report.set(), report.candidate(), report.baseline(), startedAt, finishedAt, report.passed(),
                report.failed(), report.differences(), rows, null);
    }

    private static Verification.Row row(CheckResult c) {
        return new Verification.Row(c.id(), c.kind(), c.passed(), shown(c.baseline()), shown(c.candidate()), c.difference(),
                c.passed() ? null : c.candidate().problem());
    }

    private static String shown(Outcome o) {
        return o == null ? null : o.observed();
    }
}
