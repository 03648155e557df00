package io.ragsearch.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The startup bench run small (40 documents) against real server processes, so it cannot rot:
 * the first hybrid pod embeds every document, the second takes every vector from the cache the
 * first one filled, and the model shows in the resident memory.
 */
class StartupBenchIT {

    @TempDir
    Path work;

    @Test
    void theSecondPodTakesEveryVectorFromTheCacheTheFirstFilled() throws Exception {
        String shared = System.getenv("RAGSEARCH_SHARED_CORPUS");
        Path statutes = shared != null ? Path.of(shared) : Path.of("../../shared/corpus/ko-statutes");
        StartupBench.Result r = StartupBench.run(statutes, 40, work);

        assertEquals(40, r.documents());
        assertEquals(40, r.articles(), "one article per generated document");
        assertEquals(0, r.lexical().vectorsFromCache() + r.lexical().vectorsEmbedded(), "the lexical pod has no vector leg");
        assertEquals(40, r.cold().vectorsEmbedded(), "the first pod embeds every article");
        assertEquals(0, r.cold().vectorsFromCache());
        assertEquals(40, r.warm().vectorsFromCache(), "the second pod reads every vector from the cache");
        assertEquals(0, r.warm().vectorsEmbedded());
        for (StartupBench.Start s : java.util.List.of(r.lexical(), r.cold(), r.warm())) {
            assertTrue(s.startToReadySeconds() > 0, s.pod());
            assertTrue(s.residentBytes() > 50L << 20, s.pod() + ": a JVM serving a project");
        }
        assertTrue(r.modelResidentBytes() > 50L << 20, "the model and its tokenizer are resident: " + (r.modelResidentBytes() >> 20) + " MiB");
        String md = r.markdown();
        assertTrue(md.contains("| second pod (cache filled) |"), md);
        assertTrue(md.contains("the model's resident memory"), md);
    }
}
