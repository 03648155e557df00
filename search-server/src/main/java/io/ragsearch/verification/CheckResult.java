package io.ragsearch.verification;

/**
 * One check's row: the check ({@code id}, {@code kind}, what it asks in {@code check}), the
 * baseline's outcome (null without a baseline), the candidate's, the verdict — the candidate's
 * outcome judged against the expectation — and how the two answers differ (null when they do not,
 * or without a baseline), reported even when both meet the expectation.
 */
public record CheckResult(String id, String kind, String check, Outcome baseline, Outcome candidate, boolean passed,
                          String difference) {
}
