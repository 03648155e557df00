package io.ragsearch.contract.verification;

import java.util.List;

/**
 * One verification run of a candidate server against the running version, as the candidate
 * publishes it on its admin listener and the operator reads it: the state, what ran against
 * what, a row per check, the counts and when it started and finished. {@code error} says why a
 * run could not check at all (no checks file, a bad one); such a run is {@code failed}.
 */
public record Verification(State state, String set, String candidate, String baseline, String startedAt, String finishedAt,
                           int passed, int failed, int differences, List<Row> checks, String error) {

    public Verification {
        checks = checks == null ? List.of() : List.copyOf(checks);
    }

    /** {@code running} until the last check has an answer, then {@code passed} or {@code failed}. */
    public enum State {
        RUNNING, PASSED, FAILED;

        public String json() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * One check: its id and kind, the verdict ({@code pass} or {@code fail}: the candidate judged
     * against the expectation), what each side answered in a few words (baseline null without
     * one), how they differ (null when they do not) and why the candidate failed (null on a pass).
     */
    public record Row(String id, String kind, boolean passed, String baseline, String candidate, String difference, String problem) {
    }

    public boolean finished() {
        return state != State.RUNNING;
    }

    /** The failed checks as {@code id: why}, for a condition message. */
    public List<String> failures() {
        return checks.stream().filter(r -> !r.passed())
                .map(r -> r.id() + ": " + (r.problem() == null ? "failed" : r.problem())).toList();
    }
}
