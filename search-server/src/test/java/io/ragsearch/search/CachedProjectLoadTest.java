package io.ragsearch.search;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.embed.TextEmbedder;
import io.ragsearch.embed.VectorCache;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A project loaded a second time (a pod's second start) reads its vectors instead of embedding them. */
class CachedProjectLoadTest {

    @TempDir
    Path cache;

    @Test
    void theSecondLoadEmbedsNothingAndAnswersTheSame() throws Exception {
        TextEmbedder embedder = TestProjects.embedder();
        Path dir = TestProjects.sampleDirectory("en");
        ProjectLoader loader = new ProjectLoader(TestProjects::tokenizer, TestProjects::embedder, m -> null,
                Optional.of(new VectorCache(cache)));

        long before = embedder.textsEmbedded();
        Project first = loader.load(TestProjects.settings("handbook", dir, "hybrid"));
        long embeddedFirst = embedder.textsEmbedded() - before;
        assertTrue(embeddedFirst >= first.index().size(), "the first load embeds every live article: " + embeddedFirst);

        long mid = embedder.textsEmbedded();
        Project second = new ProjectLoader(TestProjects::tokenizer, TestProjects::embedder, m -> null,
                Optional.of(new VectorCache(cache))).load(TestProjects.settings("handbook", dir, "hybrid"));
        assertEquals(0, embedder.textsEmbedded() - mid, "the second load embeds nothing");

        float[] q = embedder.embedQuery("How many days of annual leave do I get?");
        for (int i = 0; i < first.index().size(); i++) {
            assertEquals(first.index().cosine(q, i), second.index().cosine(q, i), 1e-6f);
        }
        try (var files = Files.walk(cache)) {
            assertEquals(1, files.filter(p -> p.toString().endsWith(".vec")).count());
        }
    }
}
