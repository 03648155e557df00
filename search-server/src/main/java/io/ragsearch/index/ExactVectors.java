package io.ragsearch.index;

import java.util.List;

/**
 * Exact nearest-article search: every article's cosine into a bounded top-k heap. Per query it
 * allocates O(limit), never O(corpus); rankings equal a full stable sort by cosine.
 */
public final class ExactVectors implements VectorIndex {

    private final VectorMatrix matrix;

    public ExactVectors(VectorMatrix matrix) {
        this.matrix = matrix;
    }

    @Override
    public VectorMatrix matrix() {
        return matrix;
    }

    @Override
    public List<RankedArticle> nearest(float[] query, int limit) {
        TopK top = new TopK(Math.max(0, Math.min(limit, matrix.rows())));
        for (int i = 0; i < matrix.rows(); i++) {
            top.offer(i, matrix.dot(query, i));
        }
        return top.drainBestFirst();
    }

    @Override
    public boolean approximate() {
        return false;
    }

    @Override
    public void close() {
        // heap only
    }
}
