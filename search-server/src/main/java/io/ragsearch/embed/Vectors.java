package io.ragsearch.embed;

/** Small vector helpers for normalised embeddings. */
public final class Vectors {

    private Vectors() {
    }

    /** Scales to unit length in place, so a dot product is the cosine; a zero vector stays zero. */
    public static void scaleToUnitLength(float[] v) {
        double norm = 0;
        for (float x : v) {
            norm += (double) x * x;
        }
        double length = Math.sqrt(norm);
        if (length > 0) {
            for (int i = 0; i < v.length; i++) {
                v[i] = (float) (v[i] / length);
            }
        }
    }

    public static float dot(float[] a, float[] b) {
        float s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
