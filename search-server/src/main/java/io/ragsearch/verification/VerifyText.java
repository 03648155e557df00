package io.ragsearch.verification;

import java.util.List;
import java.util.Locale;

/** A verify report for a person: a row per check, the problems of failed checks, a summary line. */
public final class VerifyText {

    private VerifyText() {
    }

    public static String render(VerifyReport r) {
        boolean side = r.baseline() != null;
        StringBuilder out = new StringBuilder();
        out.append("verify ").append(r.set()).append(": candidate ").append(r.candidate());
        if (side) {
            out.append(", baseline ").append(r.baseline());
        }
        out.append('\n');
        int idWidth = width(r.checks().stream().map(CheckResult::id).toList(), 5, 28);
        int kindWidth = width(r.checks().stream().map(CheckResult::kind).toList(), 4, 14);
        int cellWidth = 24;
        String format = "%-" + idWidth + "s  %-" + kindWidth + "s  " + (side ? "%-" + cellWidth + "s  " : "%s") + "%-" + cellWidth
                + "s  %-7s  %s%n";
        out.append(String.format(Locale.ROOT, format, "check", "kind", side ? "baseline" : "", "candidate", "verdict",
                side ? "difference" : "").stripTrailing()).append('\n');
        for (CheckResult c : r.checks()) {
            out.append(String.format(Locale.ROOT, format, Calls.cut(c.id(), idWidth), c.kind(),
                    side ? Calls.cut(c.baseline().observed(), cellWidth) : "", Calls.cut(c.candidate().observed(), cellWidth),
                    c.passed() ? "pass" : "FAIL", c.difference() == null ? "" : c.difference()).stripTrailing()).append('\n');
        }
        for (CheckResult c : r.checks()) {
            if (!c.passed()) {
                out.append("FAIL ").append(c.id()).append(": ").append(c.candidate().problem()).append('\n');
            }
        }
        out.append(summary(r)).append('\n');
        return out.toString();
    }

    public static String summary(VerifyReport r) {
        return String.format(Locale.ROOT, "%d checks: %d passed, %d failed%s (%.1f s)", r.checks().size(), r.passed(), r.failed(),
                r.baseline() == null ? "" : ", " + r.differences() + " differ from the baseline", r.seconds());
    }

    private static int width(List<String> values, int min, int max) {
        return Math.min(max, Math.max(min, values.stream().mapToInt(String::length).max().orElse(min)));
    }
}
