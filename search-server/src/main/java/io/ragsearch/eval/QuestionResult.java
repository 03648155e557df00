package io.ragsearch.eval;

/** How one question went: the rank of the first expected article (0: not returned), whether it was refused, how long it took. */
public record QuestionResult(Question question, int rank, boolean refused, double bestScore, double millis) {

    /** Answerable and found within the first {@code k}; a refused answer finds nothing. */
    public boolean hitAt(int k) {
        return !refused && rank >= 1 && rank <= k;
    }

    public double reciprocalRank(int depth) {
        return hitAt(depth) ? 1.0 / rank : 0;
    }
}
