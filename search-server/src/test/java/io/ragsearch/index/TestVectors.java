package io.ragsearch.index;

import io.ragsearch.embed.Vectors;
import java.util.Random;

/** Seeded unit vectors for the vector index tests: clustered as real embeddings are. */
final class TestVectors {

    private TestVectors() {
    }

    static float[][] clustered(int n, int dimension, int clusters, long seed) {
        Random random = new Random(seed);
        float[][] centres = new float[clusters][];
        for (int c = 0; c < clusters; c++) {
            centres[c] = unit(gaussian(random, dimension, 1));
        }
        float[][] out = new float[n][];
        for (int i = 0; i < n; i++) {
            float[] centre = centres[random.nextInt(clusters)];
            float[] noise = gaussian(random, dimension, 0.6 / Math.sqrt(dimension));
            for (int d = 0; d < dimension; d++) {
                noise[d] += centre[d];
            }
            out[i] = unit(noise);
        }
        return out;
    }

    private static float[] gaussian(Random random, int dimension, double scale) {
        float[] v = new float[dimension];
        for (int d = 0; d < dimension; d++) {
            v[d] = (float) (random.nextGaussian() * scale);
        }
        return v;
    }

    static float[] unit(float[] v) {
        Vectors.scaleToUnitLength(v);
        return v;
    }
}
