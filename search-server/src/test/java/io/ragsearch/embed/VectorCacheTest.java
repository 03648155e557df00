package io.ragsearch.embed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.search.TestProjects;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The passage-vector cache with the real built-in model: what it reuses, what it embeds again. */
class VectorCacheTest {

    private static final List<String> TEXTS = List.of(
            "Annual leave is granted after one year of service.",
            "Overtime needs the written consent of the employee.",
            "Travel expenses are paid within thirty days.");

    @TempDir
    Path root;

    private final TextEmbedder embedder = TestProjects.embedder();

    @Test
    void aSecondLoadReadsEveryVectorAndEmbedsNothing() {
        VectorCache.Outcome first = new VectorCache(root).passages(embedder, "handbook", TEXTS);
        assertEquals(3, first.embedded());
        assertEquals(0, first.reused());

        long before = embedder.textsEmbedded();
        VectorCache.Outcome second = new VectorCache(root).passages(embedder, "handbook", TEXTS);
        assertEquals(0, second.embedded());
        assertEquals(3, second.reused());
        assertEquals(before, embedder.textsEmbedded(), "the model must not run for cached texts");
        for (int i = 0; i < TEXTS.size(); i++) {
            assertArrayEquals(first.vectors()[i], second.vectors()[i]);
        }
        assertArrayEquals(embedder.embedPassages(List.of(TEXTS.get(1)))[0], second.vectors()[1], 1e-6f);
    }

    @Test
    void aChangedTextIsEmbeddedAgainAndTheOthersAreKept() {
        VectorCache cache = new VectorCache(root);
        cache.passages(embedder, "handbook", TEXTS);
        List<String> edited = List.of(TEXTS.get(0), "Overtime needs the consent of the works council.", TEXTS.get(2));
        VectorCache.Outcome outcome = cache.passages(embedder, "handbook", edited);
        assertEquals(1, outcome.embedded());
        assertEquals(2, outcome.reused());
        assertArrayEquals(embedder.embedPassages(List.of(edited.get(1)))[0], outcome.vectors()[1], 1e-6f);
        // The dropped text's entry is gone from the file: an old version does not linger.
        VectorCache.Outcome back = cache.passages(embedder, "handbook", TEXTS);
        assertEquals(1, back.embedded());
    }

    @Test
    void projectsKeepApartFilesAndReuseEachOthersVectors() {
        VectorCache cache = new VectorCache(root);
        cache.passages(embedder, "handbook", TEXTS.subList(0, 2));
        VectorCache.Outcome other = cache.passages(embedder, "another", TEXTS);
        assertEquals(1, other.embedded(), "two texts were embedded for the first project already");
        assertEquals(2, other.reused());
        assertTrue(Files.isRegularFile(cache.fileFor(embedder.digest(), "another")));
        assertEquals(2, cache.passages(embedder, "handbook", TEXTS.subList(0, 2)).reused());
        assertNotEquals(cache.fileFor("sha256:aaa", "handbook"), cache.fileFor("sha256:bbb", "handbook"));
        assertNotEquals(cache.fileFor("sha256:aaa", "handbook"), cache.fileFor("sha256:aaa", "another"));
    }

    @Test
    void aCorruptFileIsAMissAndIsRewrittenWhole() throws IOException {
        VectorCache cache = new VectorCache(root);
        cache.passages(embedder, "handbook", TEXTS);
        Path file = cache.fileFor(embedder.digest(), "handbook");
        assertTrue(Files.isRegularFile(file));
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 2)); // cut short, as by a full disk

        VectorCache.Outcome outcome = cache.passages(embedder, "handbook", TEXTS);
        assertEquals(3, outcome.embedded());
        assertEquals(3, cache.passages(embedder, "handbook", TEXTS).reused());
        try (Stream<Path> left = Files.list(file.getParent())) {
            assertEquals(List.of(file), left.toList(), "no temporary file left beside the cache file");
        }
    }

    @Test
    void anUnwritableRootCostsTimeNotVectors() throws IOException {
        Path blocked = Files.writeString(root.resolve("not-a-directory"), "x");
        VectorCache cache = new VectorCache(blocked);
        VectorCache.Outcome outcome = cache.passages(embedder, "handbook", TEXTS);
        assertEquals(3, outcome.vectors().length);
        assertEquals(3, cache.passages(embedder, "handbook", TEXTS).embedded());
    }
}
