package io.ragsearch.bench;

import io.ragsearch.embed.Vectors;
import io.ragsearch.index.RankedArticle;
import io.ragsearch.index.VectorMatrix;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The vector leg as it was before issue 28 (kept here to measure against): one array per
 * article, every article scored into a new object, all of them sorted, per query.
 */
final class FullSortScan {

    private final float[][] vectors;

    FullSortScan(VectorMatrix matrix) {
        vectors = new float[matrix.rows()][];
        for (int i = 0; i < vectors.length; i++) {
            vectors[i] = matrix.row(i);
        }
    }

    List<RankedArticle> nearest(float[] query, int limit) {
        List<RankedArticle> all = new ArrayList<>(vectors.length);
        for (int i = 0; i < vectors.length; i++) {
            all.add(new RankedArticle(i, Vectors.dot(query, vectors[i])));
        }
        all.sort(Comparator.comparingDouble((RankedArticle r) -> r.score()).reversed());
        return all.subList(0, Math.min(limit, all.size()));
    }
}
