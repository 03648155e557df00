package io.ragsearch.bench;

import io.ragsearch.embed.Vectors;
import java.util.SplittableRandom;

/**
 * Clustered random unit vectors, reproducible from a seed: {@code clusters} random directions,
 * each vector one of them plus Gaussian noise, scaled to unit length. Real passage embeddings
 * are clustered too (by subject); the noise level sets how far a vector lies from its centre
 * ({@link #SPREAD}: cosine ≈ 0.85 to the centre, ≈ 0.7 between two members of one cluster).
 * Queries are drawn the same way with another stream, so they are new points of the same shape.
 */
final class SyntheticVectors {

    /** Noise length relative to the (unit) centre. */
    static final double SPREAD = 0.6;

    private final int dimension;
    private final float[][] centres;

    SyntheticVectors(int dimension, int clusters, long seed) {
        this.dimension = dimension;
        SplittableRandom random = new SplittableRandom(seed);
        centres = new float[clusters][];
        for (int c = 0; c < clusters; c++) {
            float[] v = new float[dimension];
            for (int d = 0; d < dimension; d++) {
                v[d] = (float) gaussian(random);
            }
            centres[c] = unit(v);
        }
    }

    /** {@code n} vectors, row after row in one array. */
    float[] rows(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        float[] out = new float[Math.multiplyExact(n, dimension)];
        float[] v = new float[dimension];
        for (int i = 0; i < n; i++) {
            sample(random, v);
            System.arraycopy(v, 0, out, i * dimension, dimension);
        }
        return out;
    }

    float[][] queries(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        float[][] out = new float[n][];
        for (int i = 0; i < n; i++) {
            out[i] = new float[dimension];
            sample(random, out[i]);
        }
        return out;
    }

    private void sample(SplittableRandom random, float[] into) {
        float[] centre = centres[random.nextInt(centres.length)];
        double scale = SPREAD / Math.sqrt(dimension);
        for (int d = 0; d < dimension; d++) {
            into[d] = (float) (centre[d] + scale * gaussian(random));
        }
        unit(into);
    }

    /** A vector near {@code base} (cosine ≈ 1 / sqrt(1 + spread²)): a near-copy of a real article's vector. */
    static float[] near(float[] base, double spread, SplittableRandom random) {
        float[] v = new float[base.length];
        double scale = spread / Math.sqrt(base.length);
        for (int d = 0; d < base.length; d++) {
            v[d] = (float) (base[d] + scale * gaussian(random));
        }
        return unit(v);
    }

    private static float[] unit(float[] v) {
        Vectors.scaleToUnitLength(v);
        return v;
    }

    /** Box–Muller: SplittableRandom has no Gaussian of its own in Java 17. */
    private static double gaussian(SplittableRandom random) {
        double u = 1 - random.nextDouble();
        double w = random.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * w);
    }
}
