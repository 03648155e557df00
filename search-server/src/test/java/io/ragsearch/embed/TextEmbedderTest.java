package io.ragsearch.embed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.search.TestProjects;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.ArrayList;
import org.junit.jupiter.api.Test;

class TextEmbedderTest {

    @Test
    void embeddingsAreUnitLengthAndRankRelatedTextHigher() {
        TextEmbedder e = TestProjects.embedder();
        assertEquals(384, e.dimension());
        assertTrue(e.digest().startsWith("sha256:"));
        float[] q = e.embedQuery("how many days of annual leave");
        float[] related = e.embedQuery("Employees receive fifteen days of paid vacation each year.");
        float[] unrelated = e.embedQuery("The cafeteria opens at noon.");
        assertEquals(1.0, Vectors.dot(q, q), 1e-4);
        assertTrue(Vectors.dot(q, related) > Vectors.dot(q, unrelated) + 0.2);
    }

    @Test
    void batchedAndConcurrentEmbeddingsEqualSingleOnes() throws Exception {
        TextEmbedder e = TestProjects.embedder();
        List<String> texts = List.of("annual leave", "a much longer sentence about hotel costs in Seoul and elsewhere", "x");
        float[][] batch = e.embedPassages(texts);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<float[]>> parallel = new ArrayList<>();
            for (String t : texts) {
                parallel.add(pool.submit(() -> e.embedQuery(t)));
            }
            for (int i = 0; i < texts.size(); i++) {
                float[] single = parallel.get(i).get();
                for (int d = 0; d < single.length; d++) {
                    assertEquals(single[d], batch[i][d], 1e-5, "padding must not change an embedding");
                }
            }
        } finally {
            pool.shutdown();
        }
        assertArrayEquals(e.embedQuery("annual leave"), e.embedQuery("annual leave"));
    }
}
