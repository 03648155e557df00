package io.ragsearch.index;

import java.io.IOException;
import java.util.List;

/**
 * The vector leg's index over a project's article embeddings (unit length, so a dot product is
 * the cosine): the nearest articles to a query vector, each with its exact cosine, and the
 * cosine of any article (fusion and the relevance gate read it for lexical candidates too).
 */
public sealed interface VectorIndex extends AutoCloseable permits ExactVectors, HnswVectors {

    /** Picks the form by size: an exact scan below the threshold, an HNSW graph (built here, in memory) from it on. */
    static VectorIndex of(float[][] vectors, VectorSearchSettings settings) throws IOException {
        VectorMatrix matrix = VectorMatrix.of(vectors);
        return settings.approximate(matrix.rows()) ? HnswVectors.build(matrix, settings, null, null) : new ExactVectors(matrix);
    }

    /** The article vectors the index answers for; both forms score hits against them exactly. */
    VectorMatrix matrix();

    default int size() {
        return matrix().rows();
    }

    /** The {@code limit} articles with the highest cosine, best first; ties by lower position. */
    List<RankedArticle> nearest(float[] query, int limit);

    /** The cosine of the query with one article, exactly as the one-array-per-article form computed it. */
    default float cosine(float[] query, int position) {
        return matrix().dot(query, position);
    }

    /** True for the graph (approximate) form. */
    boolean approximate();

    @Override
    void close();
}
