package io.ragsearch.search;

/**
 * Decides whether the candidates support an answer at all. The score it compares is the
 * candidate's relevance in [0, 1] (see {@link SearchService}); below the threshold the answer
 * is "no supporting documents" rather than the least bad article.
 */
public record RelevanceGate(double threshold) {

    public static final double DEFAULT_THRESHOLD = 0.5;

    public RelevanceGate {
        if (threshold < 0 || threshold > 1) {
            throw new IllegalArgumentException("gate threshold must lie in [0, 1], got " + threshold);
        }
    }

    public boolean admits(double score) {
        return score >= threshold;
    }

    public Outcome judge(double bestScore) {
        return new Outcome(admits(bestScore), bestScore, threshold);
    }

    /** The gate's numbers, carried in every search response so the decision can be checked and tuned. */
    public record Outcome(boolean passed, double bestScore, double threshold) {
    }
}
