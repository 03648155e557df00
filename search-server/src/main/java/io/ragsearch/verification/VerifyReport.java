package io.ragsearch.verification;

import java.util.List;

/**
 * A verify run: which set, against which candidate (and baseline, or null), a row per check, the
 * counts, and the wall time. Plain data with no JSON annotations: {@code verify --json} prints it
 * as is, and a server can publish it for the operator to read.
 */
public record VerifyReport(String set, String candidate, String baseline, List<CheckResult> checks, int passed, int failed,
                           int differences, double seconds) {

    public VerifyReport {
        checks = List.copyOf(checks);
    }

    static VerifyReport of(String set, String candidate, String baseline, List<CheckResult> checks, double seconds) {
        int passed = (int) checks.stream().filter(CheckResult::passed).count();
        int differences = (int) checks.stream().filter(c -> c.difference() != null).count();
        return new VerifyReport(set, candidate, baseline, checks, passed, checks.size() - passed, differences, seconds);
    }

    /** Every check passed on the candidate. */
    public boolean allPassed() {
        return failed == 0;
    }
}
