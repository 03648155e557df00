package io.ragsearch.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.corpus.Article;
import io.ragsearch.corpus.Corpus;
import io.ragsearch.corpus.Document;
import io.ragsearch.embed.Vectors;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lucene's HNSW graph against the exact scan: recall@10, exact cosines, persistence, and where the switch happens. */
class HnswVectorsTest {

    private static final int K = 10;

    /** Recall@10 of the graph's answers against the exact scan's, over queries drawn like the corpus. */
    private static double recall(VectorIndex graph, ExactVectors exact, float[][] queries) {
        double found = 0;
        for (float[] q : queries) {
            Set<Integer> truth = new HashSet<>();
            exact.nearest(q, K).forEach(r -> truth.add(r.position()));
            found += graph.nearest(q, K).stream().filter(r -> truth.contains(r.position())).count() / (double) K;
        }
        return found / queries.length;
    }

    @Test
    void theGraphFindsTheExactTopTenAtLeast99PercentOfTheTime() throws Exception {
        float[][] vectors = TestVectors.clustered(4000, 96, 40, 11);
        // Queries near articles (as a question lies near its answer), not copies of them.
        Random random = new Random(12);
        float[][] queries = new float[100][];
        for (int i = 0; i < queries.length; i++) {
            float[] q = vectors[i * 37].clone();
            for (int d = 0; d < q.length; d++) {
                q[d] += (float) (random.nextGaussian() * 0.5 / Math.sqrt(q.length));
            }
            queries[i] = TestVectors.unit(q);
        }
        VectorMatrix matrix = VectorMatrix.of(vectors);
        try (HnswVectors graph = HnswVectors.build(matrix, VectorSearchSettings.DEFAULTS, null, null)) {
            double recall = recall(graph, new ExactVectors(matrix), queries);
            assertTrue(recall >= 0.99, "recall@10 " + recall);
            assertTrue(graph.approximate());
        }
    }

    @Test
    void hitsCarryTheExactCosineBestFirst() throws Exception {
        float[][] vectors = TestVectors.clustered(500, 32, 5, 21);
        try (HnswVectors graph = HnswVectors.build(VectorMatrix.of(vectors), VectorSearchSettings.DEFAULTS, null, null)) {
            float[] q = vectors[42];
            List<RankedArticle> hits = graph.nearest(q, 20);
            assertEquals(20, hits.size());
            assertEquals(42, hits.get(0).position());
            for (int i = 0; i < hits.size(); i++) {
                assertEquals(Vectors.dot(q, vectors[hits.get(i).position()]), hits.get(i).score());
                if (i > 0) {
                    assertTrue(hits.get(i - 1).score() >= hits.get(i).score());
                }
            }
            assertEquals(Vectors.dot(q, vectors[7]), graph.cosine(q, 7));
            assertTrue(graph.nearest(q, 0).isEmpty());
            assertEquals(500, graph.nearest(q, 1000).size());
        }
    }

    @Test
    void aPersistedGraphReopensOnlyForTheSameKeySettingsAndSize(@TempDir Path dir) throws Exception {
        float[][] vectors = TestVectors.clustered(300, 16, 4, 31);
        VectorMatrix matrix = VectorMatrix.of(vectors);
        VectorSearchSettings settings = VectorSearchSettings.DEFAULTS;
        Path graphDir = dir.resolve("graph");
        assertNull(HnswVectors.openIfCurrent(matrix, settings, graphDir, "v1"), "nothing written yet");
        List<RankedArticle> built;
        try (HnswVectors graph = HnswVectors.build(matrix, settings, graphDir, "v1")) {
            built = graph.nearest(vectors[5], K);
        }
        try (HnswVectors reopened = HnswVectors.openIfCurrent(matrix, settings, graphDir, "v1")) {
            assertNotNull(reopened);
            assertEquals(built, reopened.nearest(vectors[5], K));
        }
        assertNull(HnswVectors.openIfCurrent(matrix, settings, graphDir, "v2"), "another corpus version or embedder");
        VectorSearchSettings otherGraph = new VectorSearchSettings(settings.exactBelow(), 8, settings.beamWidth(), settings.candidates(), false);
        assertNull(HnswVectors.openIfCurrent(matrix, otherGraph, graphDir, "v1"), "another M");
        assertNull(HnswVectors.openIfCurrent(VectorMatrix.of(TestVectors.clustered(299, 16, 4, 31)), settings, graphDir, "v1"),
                "another number of vectors");
    }

    @Test
    void theIndexSwitchesToTheGraphAtTheThreshold() throws Exception {
        float[][] vectors = TestVectors.clustered(200, 16, 4, 41);
        VectorSearchSettings settings = new VectorSearchSettings(200, 16, 100, 100, false);
        try (VectorIndex atThreshold = VectorIndex.of(vectors, settings);
             VectorIndex below = VectorIndex.of(Arrays.copyOf(vectors, 199), settings)) {
            assertTrue(atThreshold instanceof HnswVectors);
            assertTrue(atThreshold.approximate());
            assertTrue(below instanceof ExactVectors);
            assertFalse(below.approximate());
        }
        assertTrue(settings.approximate(200));
        assertFalse(settings.approximate(199));
        assertFalse(VectorSearchSettings.DEFAULTS.approximate(877), "the statutes (877 articles) stay exact by default");
    }

    @Test
    void aProjectIndexAtTheThresholdSearchesTheGraphWithTheSameCosines() throws Exception {
        List<Article> articles = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            articles.add(new Article("제" + (i + 1) + "조", i, "조항 " + i, "본문 " + i + " 내용", false));
        }
        Corpus corpus = new Corpus("p", List.of(
                new Document("d", "법", "sha", articles)), "v1");
        float[][] vectors = TestVectors.clustered(30, 16, 3, 61);
        VectorSearchSettings at30 = new VectorSearchSettings(30, 16, 100, 100, false);
        VectorSearchSettings at31 = new VectorSearchSettings(31, 16, 100, 100, false);
        try (ProjectIndex graph = IndexBuilder.build(corpus, Language.KOREAN, null, vectors, at30);
             ProjectIndex scan = IndexBuilder.build(corpus, Language.KOREAN, null, vectors, at31)) {
            assertTrue(graph.approximateVectors());
            assertFalse(scan.approximateVectors());
            // At this size the graph's beam covers the corpus: both forms rank alike, with the same cosines.
            assertEquals(scan.vector(vectors[9], 10), graph.vector(vectors[9], 10));
            assertEquals(scan.cosine(vectors[9], 17), graph.cosine(vectors[9], 17));
        }
    }

    @Test
    void storedVectorsThatDoNotMatchTheArticlesAreRefusedBeforeAnyGraphIsBuilt() {
        Corpus corpus = new Corpus("p", List.of(new Document("d", "법", "sha",
                List.of(new Article("제1조", 0, "목적", "이 법은 목적을 정한다.", false)))), "v1");
        IOException e = assertThrows(IOException.class,
                () -> IndexBuilder.build(corpus, Language.KOREAN, null, TestVectors.clustered(2, 8, 1, 1),
                        new VectorSearchSettings(0, 16, 100, 100, false)));
        assertTrue(e.getMessage().contains("stored embeddings (2) do not match live articles (1)"), e.getMessage());
    }

    @Test
    void theIndexingBufferIsAQuarterOfTheHeapWithinLucenesLimit() {
        assertEquals(64, HnswVectors.indexingBufferMb(256L << 20));
        assertEquals(1900, HnswVectors.indexingBufferMb(16L << 30));
        assertEquals(16, HnswVectors.indexingBufferMb(32L << 20));
    }

    @Test
    void theInt8GraphAlsoFindsTheNearest() throws Exception {
        float[][] vectors = TestVectors.clustered(1000, 64, 10, 51);
        VectorSearchSettings int8 = new VectorSearchSettings(0, 16, 100, 100, true);
        try (HnswVectors graph = HnswVectors.build(VectorMatrix.of(vectors), int8, null, null)) {
            for (int i = 0; i < 20; i++) {
                RankedArticle best = graph.nearest(vectors[i * 50], 1).get(0);
                assertEquals(i * 50, best.position());
                assertEquals(Vectors.dot(vectors[i * 50], vectors[i * 50]), best.score());
            }
        }
    }
}
