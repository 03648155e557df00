package io.ragsearch.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.embed.Vectors;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The exact scan's top-k: the ranking a full stable sort by cosine gave before it, ties included. */
class ExactVectorsTest {

    /** The vector leg as it was before the bounded heap: every article scored, all sorted (stable), cut. */
    private static List<RankedArticle> fullSort(float[][] vectors, float[] query, int limit) {
        List<RankedArticle> all = new ArrayList<>();
        for (int i = 0; i < vectors.length; i++) {
            all.add(new RankedArticle(i, Vectors.dot(query, vectors[i])));
        }
        all.sort(Comparator.comparingDouble((RankedArticle r) -> r.score()).reversed());
        return all.subList(0, Math.min(limit, all.size()));
    }

    private static ExactVectors exact(float[][] vectors) {
        return new ExactVectors(VectorMatrix.of(vectors));
    }

    @Test
    void sameRankingAndScoresAsTheFullSortOnRandomVectors() {
        float[][] vectors = TestVectors.clustered(3000, 64, 12, 7);
        ExactVectors index = exact(vectors);
        Random random = new Random(8);
        for (int q = 0; q < 50; q++) {
            float[] query = vectors[random.nextInt(vectors.length)].clone();
            query[random.nextInt(query.length)] += 0.05f;
            for (int limit : new int[] {1, 10, 40}) {
                assertEquals(fullSort(vectors, query, limit), index.nearest(query, limit), "query " + q + ", limit " + limit);
            }
        }
    }

    @Test
    void tiesGoToTheLowerPositionAsTheStableSortDid() {
        float[] a = TestVectors.unit(new float[] {1, 2, 3});
        float[] b = TestVectors.unit(new float[] {3, 2, 1});
        // Positions 1, 3 and 4 hold the same vector: equal cosines, kept in position order.
        float[][] vectors = {b, a, b, a.clone(), a.clone(), b};
        ExactVectors index = exact(vectors);
        List<RankedArticle> top = index.nearest(a, 2);
        assertEquals(List.of(1, 3), top.stream().map(RankedArticle::position).toList());
        assertEquals(top.get(0).score(), top.get(1).score());
        assertEquals(fullSort(vectors, a, 4), index.nearest(a, 4));
        assertEquals(fullSort(vectors, b, 6), index.nearest(b, 6));
    }

    @Test
    void allIdenticalScoresComeBackInPositionOrder() {
        float[] v = TestVectors.unit(new float[] {1, 1, 1, 1});
        float[][] vectors = new float[50][];
        for (int i = 0; i < vectors.length; i++) {
            vectors[i] = v.clone();
        }
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6), exact(vectors).nearest(v, 7).stream().map(RankedArticle::position).toList());
    }

    @Test
    void aLimitBeyondTheCorpusReturnsEveryArticleRanked() {
        float[][] vectors = TestVectors.clustered(7, 16, 2, 3);
        float[] query = vectors[4];
        List<RankedArticle> top = exact(vectors).nearest(query, 100);
        assertEquals(7, top.size());
        assertEquals(fullSort(vectors, query, 100), top);
        assertEquals(4, top.get(0).position());
    }

    @Test
    void anEmptyCorpusOrANonPositiveLimitFindsNothing() {
        ExactVectors empty = exact(new float[0][]);
        assertEquals(0, empty.size());
        assertTrue(empty.nearest(new float[] {1, 0}, 10).isEmpty());
        ExactVectors some = exact(TestVectors.clustered(5, 8, 1, 1));
        assertTrue(some.nearest(TestVectors.unit(new float[] {1, 0, 0, 0, 0, 0, 0, 0}), 0).isEmpty());
        assertFalse(some.approximate());
    }

    @Test
    void cosineIsTheDotProductOfTheOneArrayForm() {
        float[][] vectors = TestVectors.clustered(20, 32, 3, 5);
        ExactVectors index = exact(vectors);
        for (int i = 0; i < vectors.length; i++) {
            assertEquals(Vectors.dot(vectors[3], vectors[i]), index.cosine(vectors[3], i));
        }
    }

    @Test
    void aQueryOfTheWrongDimensionIsAClearError() {
        ExactVectors index = exact(TestVectors.clustered(5, 8, 1, 1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> index.nearest(new float[4], 3));
        assertTrue(e.getMessage().contains("dimension 4"), e.getMessage());
    }

    @Test
    void vectorsOfDifferentDimensionsAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> VectorMatrix.of(new float[][] {new float[4], new float[3]}));
        assertTrue(e.getMessage().contains("vector 1 has dimension 3"), e.getMessage());
    }
}
