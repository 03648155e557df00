package io.ragsearch.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.corpus.Article;
import io.ragsearch.corpus.Corpus;
import io.ragsearch.corpus.Document;
import io.ragsearch.embed.TextEmbedder;
import io.ragsearch.search.Project;
import io.ragsearch.search.ProjectSettings;
import io.ragsearch.search.RetrievalMode;
import io.ragsearch.search.TestProjects;
import io.ragsearch.store.StoredProject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A database project's stored vectors pass the checks the vector cache applies before a search
 * may score with them: the digest says who wrote the rows, not that they hold usable vectors.
 */
class StoredVectorsCheckTest {

    private static final List<String> BODIES = List.of(
            "Annual leave is granted after one year of service.",
            "Overtime needs the written consent of the employee.");

    private final TextEmbedder embedder = TestProjects.embedder();

    private StoredProject stored(float[][] vectors) {
        List<Article> articles = List.of(new Article("Article 1", 1, "Leave", BODIES.get(0), false),
                new Article("Article 2", 2, "Overtime", BODIES.get(1), false));
        Corpus corpus = new Corpus("rules", List.of(new Document("handbook", "Handbook", "sha", articles)), "v1");
        return new StoredProject("rules", "", 1, corpus, vectors, embedder.name(), embedder.digest(), List.of());
    }

    private Project load(float[][] vectors) throws Exception {
        return new StoredProjectLoader(TestProjects::embedder, r -> null).load(stored(vectors), ProjectSettings.defaults("rules"));
    }

    @Test
    void checkedVectorsServeHybrid() throws Exception {
        Project p = load(embedder.embedPassages(BODIES));
        assertEquals(RetrievalMode.HYBRID, p.mode());
    }

    @Test
    void aNanOrInfiniteOrUnscaledStoredVectorTurnsTheVectorLegOff() throws Exception {
        for (float bad : new float[] {Float.NaN, Float.POSITIVE_INFINITY, 3f}) {
            float[][] vectors = embedder.embedPassages(BODIES);
            if (bad == 3f) {
                for (int d = 0; d < vectors[1].length; d++) {
                    vectors[1][d] *= bad;
                }
            } else {
                vectors[1][5] = bad;
            }
            Project p = load(vectors);
            assertEquals(RetrievalMode.LEXICAL, p.mode(), "stored vector with " + bad);
            assertTrue(p.modeReason().contains("vector 1") && p.modeReason().contains("re-run ingest"), p.modeReason());
        }
    }
}
