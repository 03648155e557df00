package io.ragsearch.embed;

/** Small vector helpers for normalised embeddings. */
public final class Vectors {

    private Vectors() {
    }

    /** Divides by {@code count} (mean) and scales to unit length; a zero vector stays zero. */
    static float[] normalize(float[] sum, int count) {
        double norm = 0;
        for (int i = 0; i < sum.length; i++) {
            sum[i] /= count;
            norm += (double) sum[i] * sum[i];
        }
        double length = Math.sqrt(norm);
        if (length > 0) {
            for (int i = 0; i < sum.length; i++) {
                sum[i] = (float) (sum[i] / length);
            }
        }
        return sum;
    }

    public static float dot(float[] a, float[] b) {
        float s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
