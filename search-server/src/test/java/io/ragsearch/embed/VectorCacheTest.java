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

    // ---- what a cache file is checked for (issue 28): each attack is a miss, never a wrong vector or a hang ----

    /** Writes {@code TEXTS} with these vectors in the current format (a valid checksum): only the entry checks can refuse it. */
    private Path writeWith(VectorCache cache, float[][] vectors) throws IOException {
        Path file = cache.fileFor(embedder.digest(), "handbook");
        java.util.Map<VectorCache.Hash, float[]> entries = new java.util.LinkedHashMap<>();
        for (int i = 0; i < TEXTS.size(); i++) {
            entries.put(VectorCache.Hash.of(TEXTS.get(i)), vectors[i]);
        }
        VectorFile.write(file, entries, embedder.dimension());
        return file;
    }

    private void assertGenuine(VectorCache.Outcome outcome) {
        float[][] clean = embedder.embedPassages(TEXTS);
        for (int i = 0; i < TEXTS.size(); i++) {
            assertArrayEquals(clean[i], outcome.vectors()[i], 1e-5f, "text " + i);
        }
    }

    @Test
    void nanAndInfiniteVectorsAreRefused() throws IOException {
        VectorCache cache = new VectorCache(root);
        for (float bad : new float[] {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY}) {
            float[][] poisoned = embedder.embedPassages(TEXTS);
            poisoned[1][7] = bad;
            Path file = writeWith(cache, poisoned);
            VectorFile.Read read = VectorFile.read(file, embedder.dimension(), true);
            assertTrue(read instanceof VectorFile.Refused r && r.reason().contains("entry 1") && r.reason().contains(Float.toString(bad)),
                    read.toString());
            VectorCache.Outcome outcome = cache.passages(embedder, "handbook", TEXTS);
            assertEquals(3, outcome.embedded(), "a file holding " + bad + " is a miss");
            assertGenuine(outcome);
        }
    }

    @Test
    void vectorsOfTheWrongLengthOrDimensionAreRefused() throws IOException {
        VectorCache cache = new VectorCache(root);
        float[][] scaled = embedder.embedPassages(TEXTS);
        for (int d = 0; d < scaled[2].length; d++) {
            scaled[2][d] *= 3; // finite, but not what a normalising model writes
        }
        Path file = writeWith(cache, scaled);
        assertTrue(VectorFile.read(file, embedder.dimension(), true) instanceof VectorFile.Refused r && r.reason().contains("unit length"));
        assertEquals(3, cache.passages(embedder, "handbook", TEXTS).embedded());
        // Another model's dimension: refused whole, before any entry is read.
        assertTrue(VectorFile.read(file, embedder.dimension() + 1, true) instanceof VectorFile.Refused r
                && r.reason().contains("dimension"));
    }

    @Test
    void twoVectorsSwappedBetweenEntriesFailTheChecksum() throws IOException {
        VectorCache cache = new VectorCache(root);
        cache.passages(embedder, "handbook", TEXTS);
        Path file = cache.fileFor(embedder.digest(), "handbook");
        byte[] bytes = Files.readAllBytes(file);
        int header = 16;
        int entry = VectorFile.HASH_BYTES + embedder.dimension() * Float.BYTES;
        // Entries 0 and 2 keep their text hashes and trade vectors: each is a valid unit vector, only their order is wrong.
        byte[] first = java.util.Arrays.copyOfRange(bytes, header + VectorFile.HASH_BYTES, header + entry);
        byte[] third = java.util.Arrays.copyOfRange(bytes, header + 2 * entry + VectorFile.HASH_BYTES, header + 3 * entry);
        System.arraycopy(third, 0, bytes, header + VectorFile.HASH_BYTES, third.length);
        System.arraycopy(first, 0, bytes, header + 2 * entry + VectorFile.HASH_BYTES, first.length);
        Files.write(file, bytes);

        VectorFile.Read read = VectorFile.read(file, embedder.dimension(), true);
        assertTrue(read instanceof VectorFile.Refused r && r.reason().contains("checksum"), read.toString());
        VectorCache.Outcome outcome = cache.passages(embedder, "handbook", TEXTS);
        assertEquals(3, outcome.embedded());
        assertGenuine(outcome);
    }

    @Test
    void aFileOfTheFormerVersionIsAMiss() throws IOException {
        VectorCache cache = new VectorCache(root);
        Path file = cache.fileFor(embedder.digest(), "handbook");
        Files.createDirectories(file.getParent());
        try (var out = new java.io.DataOutputStream(Files.newOutputStream(file))) {
            out.writeInt(VectorFile.MAGIC);
            out.writeInt(1); // version 1: no checksum, nothing checked
            out.writeInt(embedder.dimension());
            out.writeInt(0);
        }
        VectorFile.Read read = VectorFile.read(file, embedder.dimension(), true);
        assertTrue(read instanceof VectorFile.Refused r && r.reason().contains("version 1"), read.toString());
        assertEquals(3, cache.passages(embedder, "handbook", TEXTS).embedded());
        assertEquals(3, cache.passages(embedder, "handbook", TEXTS).reused(), "rewritten in the current format");
    }

    @Test
    void aFifoNamedLikeTheCacheFileIsSkippedWithoutBlocking() throws Exception {
        VectorCache cache = new VectorCache(root);
        Path file = cache.fileFor(embedder.digest(), "handbook");
        Files.createDirectories(VectorCache.partsFor(file));
        mkfifo(file);
        mkfifo(VectorCache.partsFor(file).resolve("0000-0.vec")); // a part file too
        mkfifo(cache.fileFor(embedder.digest(), "sibling"));      // and a sibling project's file
        // Opening a FIFO for reading blocks until a writer comes: before this check, startup hung for ever.
        VectorCache.Outcome outcome = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(60),
                () -> cache.passages(embedder, "handbook", TEXTS), "reading a cache folder holding FIFOs");
        assertEquals(3, outcome.embedded());
        assertGenuine(outcome);
        VectorFile.Read read = VectorFile.read(cache.fileFor(embedder.digest(), "sibling"), embedder.dimension(), true);
        assertTrue(read instanceof VectorFile.Refused r && r.reason().contains("not a regular file"), read.toString());
        assertTrue(Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS), "the FIFO was replaced by the written file");
    }

    @Test
    void aDirectoryOrADanglingLinkNamedLikeTheCacheFileIsAMiss() throws IOException {
        VectorCache cache = new VectorCache(root);
        Path file = cache.fileFor(embedder.digest(), "handbook");
        Files.createDirectories(file);
        assertTrue(VectorFile.read(file, embedder.dimension(), true) instanceof VectorFile.Refused r && r.reason().contains("directory"));
        assertEquals(3, cache.passages(embedder, "handbook", TEXTS).vectors().length);
        Files.delete(file);
        Files.createSymbolicLink(file, root.resolve("nowhere"));
        assertTrue(VectorFile.read(file, embedder.dimension(), true) instanceof VectorFile.Refused r && r.reason().contains("link"));
        assertGenuine(cache.passages(embedder, "handbook", TEXTS));
    }

    @Test
    void aStoppedPassKeepsItsChunksAndTheNextEmbedsOnlyTheRest() throws Exception {
        List<String> texts = new java.util.ArrayList<>();
        for (int i = 0; i < 12 * ChunkedEmbedding.CHUNK; i++) {
            texts.add("Rule " + i + ": an employee may take " + (i % 30) + " days of leave for reason number " + i + ".");
        }
        VectorCache cache = new VectorCache(root);
        EmbeddingProgress progress = new EmbeddingProgress();
        progress.expect(texts.size(), ChunkedEmbedding.chars(texts));
        java.util.concurrent.atomic.AtomicReference<Throwable> ended = new java.util.concurrent.atomic.AtomicReference<>();
        Thread pass = new Thread(() -> {
            try {
                cache.passages(embedder, "handbook", texts, progress);
            } catch (Throwable t) {
                ended.set(t);
            }
        });
        pass.start();
        org.awaitility.Awaitility.await("two chunks embedded").atMost(java.time.Duration.ofMinutes(2))
                .until(() -> progress.snapshot().articlesDone() >= 2 * ChunkedEmbedding.CHUNK || !pass.isAlive());
        pass.interrupt(); // as a SIGKILL would, between two chunks; what a SIGKILL loses on top is the chunk in flight
        pass.join(120_000);
        assertTrue(ended.get() instanceof java.util.concurrent.CancellationException, "the pass ran to its end before the stop: " + ended);
        Path parts = VectorCache.partsFor(cache.fileFor(embedder.digest(), "handbook"));
        long kept;
        try (Stream<Path> files = Files.list(parts)) {
            kept = files.filter(f -> f.toString().endsWith(".vec")).count();
        }
        assertTrue(kept >= 2 && kept < 12, "chunks kept: " + kept);
        assertTrue(progress.snapshot().secondsLeft() != null, "a rate was measured");

        VectorCache.Outcome resumed = cache.passages(embedder, "handbook", texts);
        assertEquals(kept * ChunkedEmbedding.CHUNK, resumed.reused(), "every kept chunk is read");
        assertEquals(texts.size() - kept * ChunkedEmbedding.CHUNK, resumed.embedded(), "only what they lack is embedded");
        float[][] clean = embedder.embedPassages(texts);
        for (int i = 0; i < texts.size(); i++) {
            assertArrayEquals(clean[i], resumed.vectors()[i], 1e-5f, "text " + i);
        }
        assertTrue(Files.notExists(parts), "the parts are merged into the whole file and removed");
        assertEquals(texts.size(), cache.passages(embedder, "handbook", texts).reused());
    }

    private static void mkfifo(Path path) throws Exception {
        Process p = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
        assertEquals(0, p.waitFor(), "mkfifo " + path);
    }
}
