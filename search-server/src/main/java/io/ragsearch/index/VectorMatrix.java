package io.ragsearch.index;

/**
 * A project's article embeddings in one contiguous array, row by row (row = index position):
 * one object for the whole corpus instead of one per article, so a scan walks memory in order
 * and the collector does not trace a million small arrays.
 */
public final class VectorMatrix {

    private final float[] values;
    private final int dimension;
    private final int rows;

    private VectorMatrix(float[] values, int dimension, int rows) {
        this.values = values;
        this.dimension = dimension;
        this.rows = rows;
    }

    /** Copies the rows; they must all have the same length. */
    public static VectorMatrix of(float[][] rows) {
        int dimension = rows.length == 0 ? 0 : rows[0].length;
        if ((long) rows.length * dimension > Integer.MAX_VALUE - 8) {
            // One Java array holds at most 2^31 values: 5.5 million articles at dimension 384.
            throw new IllegalArgumentException(rows.length + " vectors of dimension " + dimension + " do not fit one array");
        }
        float[] values = new float[rows.length * dimension];
        for (int i = 0; i < rows.length; i++) {
            if (rows[i].length != dimension) {
                throw new IllegalArgumentException("vector " + i + " has dimension " + rows[i].length + ", the first has " + dimension);
            }
            System.arraycopy(rows[i], 0, values, i * dimension, dimension);
        }
        return new VectorMatrix(values, dimension, rows.length);
    }

    /** Takes the array as it is (no copy): {@code values.length} must be a multiple of {@code dimension}. */
    public static VectorMatrix wrap(float[] values, int dimension) {
        if (dimension <= 0 || values.length % dimension != 0) {
            throw new IllegalArgumentException(values.length + " values are not rows of dimension " + dimension);
        }
        return new VectorMatrix(values, dimension, values.length / dimension);
    }

    public int rows() {
        return rows;
    }

    public int dimension() {
        return dimension;
    }

    /** Bytes of vector data held (the array's payload). */
    public long bytes() {
        return (long) values.length * Float.BYTES;
    }

    /** A copy of one row. */
    public float[] row(int row) {
        float[] out = new float[dimension];
        System.arraycopy(values, row * dimension, out, 0, dimension);
        return out;
    }

    /**
     * The dot product of {@code query} with one row, summed in the same order as
     * {@link io.ragsearch.embed.Vectors#dot}: the same float result, so rankings and the cosines
     * fusion and the gate read are exactly those of the one-array-per-article form.
     */
    public float dot(float[] query, int row) {
        if (query.length != dimension) {
            throw new IllegalArgumentException("query vector has dimension " + query.length + ", the index has " + dimension);
        }
        int base = row * dimension;
        float s = 0;
        for (int i = 0; i < dimension; i++) {
            s += query[i] * values[base + i];
        }
        return s;
    }
}
