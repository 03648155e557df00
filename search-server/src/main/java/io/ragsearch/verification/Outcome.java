package io.ragsearch.verification;

/**
 * How one server answered one check: what it answered in a few words ({@code observed}, e.g.
 * "rank 1 (0.87)", "refused (0.41)", "unreachable"), whether that meets the check's expectation,
 * why not ({@code problem}, null when it does) and how long it took.
 */
public record Outcome(String observed, boolean met, String problem, double millis) {
}
