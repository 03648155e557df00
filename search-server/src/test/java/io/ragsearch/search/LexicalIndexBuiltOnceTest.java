package io.ragsearch.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.embed.EmbeddingProgress;
import io.ragsearch.index.ProjectIndex;
import io.ragsearch.index.RankedArticle;
import java.util.List;
import org.apache.lucene.store.AlreadyClosedException;
import org.junit.jupiter.api.Test;

/**
 * A project served lexical-first while its vectors are embedded (serve's start-up order) gets
 * its vector leg on the same lexical index: one build per project, and the two forms close
 * independently, the shared lexical index with the last of them.
 */
class LexicalIndexBuiltOnceTest {

    private static final String QUESTION = "How many days of annual leave do I get?";

    @Test
    void theCompletedProjectReusesTheLexicalFirstIndex() throws Exception {
        ProjectLoader loader = new ProjectLoader(TestProjects::tokenizer, TestProjects::embedder);
        ProjectLoader.Prepared prepared = loader.prepare(TestProjects.settings("handbook", TestProjects.sampleDirectory("en"), "hybrid"));
        Project lexicalFirst = loader.lexicalFirst(prepared);
        assertEquals(1, loader.lexicalBuilds());
        assertFalse(lexicalFirst.index().hasVectors());

        Project complete = loader.complete(prepared, lexicalFirst.index(), new EmbeddingProgress());
        assertEquals(1, loader.lexicalBuilds(), "completing the project built no second lexical index");
        assertEquals(RetrievalMode.HYBRID, complete.mode());
        assertTrue(complete.index().hasVectors());

        // The same answers as a project loaded in one go (which also builds its lexical index once).
        ProjectLoader oneGo = new ProjectLoader(TestProjects::tokenizer, TestProjects::embedder);
        Project loaded = oneGo.load(TestProjects.settings("handbook", TestProjects.sampleDirectory("en"), "hybrid"));
        assertEquals(1, oneGo.lexicalBuilds());
        assertEquals(lexical(loaded.index()), lexical(complete.index()));
        float[] q = TestProjects.embedder().embedQuery(QUESTION);
        assertEquals(loaded.index().vector(q, 5), complete.index().vector(q, 5));

        // The lexical-first form goes (replaced, closed): the completed one still searches its lexical index.
        List<RankedArticle> before = lexical(complete.index());
        lexicalFirst.index().close();
        lexicalFirst.index().close();
        assertEquals(before, lexical(complete.index()), "closing the lexical-first form (twice) left the shared index open");
        complete.index().close();
        assertThrows(AlreadyClosedException.class, () -> lexical(complete.index()), "the last form closed the shared index");
        loaded.index().close();
    }

    @Test
    void anIndexThatHasItsVectorsIsNotCompletedAgain() throws Exception {
        ProjectLoader loader = new ProjectLoader(TestProjects::tokenizer, TestProjects::embedder);
        ProjectLoader.Prepared prepared = loader.prepare(TestProjects.settings("handbook", TestProjects.sampleDirectory("en"), "hybrid"));
        try (ProjectIndex complete = loader.complete(prepared, new EmbeddingProgress()).index()) {
            assertThrows(IllegalArgumentException.class, () -> loader.complete(prepared, complete, new EmbeddingProgress()));
        }
    }

    private static List<RankedArticle> lexical(ProjectIndex index) {
        return index.lexical(index.queryAnalyzer().analyze(QUESTION), 10);
    }
}
