package io.ragsearch.embed;

import java.util.Optional;

/**
 * What a stored passage vector must be before a search may score with it: the model's dimension,
 * every value finite, and unit length when the model's vectors are normalised. One NaN in a
 * stored vector makes every cosine NaN, and the gate then refuses every query of the project
 * ("no supporting documents", best relevance NaN): such a vector is refused where it is read.
 */
public final class VectorCheck {

    /**
     * How far a normalised vector's squared length may stray from 1. Float rounding of a
     * 1,024-dimension unit vector stays below 1e-5; a vector scaled by anything else than its
     * length (a different model's, a tampered one) is far outside.
     */
    static final double UNIT_TOLERANCE = 1e-3;

    private VectorCheck() {
    }

    /** Empty when {@code v} passes, otherwise why not (for a log line). */
    public static Optional<String> problem(float[] v, int dimension, boolean unitLength) {
        if (v == null) {
            return Optional.of("no vector");
        }
        if (v.length != dimension) {
            return Optional.of(v.length + " values where the model gives " + dimension);
        }
        double squared = 0;
        for (int i = 0; i < v.length; i++) {
            if (!Float.isFinite(v[i])) {
                return Optional.of("value " + i + " is " + v[i]);
            }
            squared += (double) v[i] * v[i];
        }
        if (unitLength && Math.abs(squared - 1) > UNIT_TOLERANCE) {
            return Optional.of(String.format(java.util.Locale.ROOT, "length %.4f where the model's vectors have unit length",
                    Math.sqrt(squared)));
        }
        return Optional.empty();
    }

    /** The first problem among {@code vectors}, naming its position. */
    public static Optional<String> firstProblem(float[][] vectors, int dimension, boolean unitLength) {
        for (int i = 0; i < vectors.length; i++) {
            Optional<String> p = problem(vectors[i], dimension, unitLength);
            if (p.isPresent()) {
                return Optional.of("vector " + i + ": " + p.get());
            }
        }
        return Optional.empty();
    }
}
