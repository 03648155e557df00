package io.ragsearch.embed;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Passage vectors kept on disk between starts, so that a directory or ConfigMap project is
 * embedded once per model and content, not at every start of every pod. Entries are addressed
 * by the sha256 of the text embedded, under a folder per embedder digest (the model file, the
 * tokenizer file and every setting that changes passage vectors): a changed article is embedded
 * again, an unchanged one never, and a cache written by another model, tokenizer or setting is
 * never read.
 *
 * <p>Layout under the digest's folder, every file in {@link VectorFile}'s checked format:
 * <ul>
 * <li>{@code P.vec}: the project's whole set, rewritten (temporary file, rename) after a complete
 *     pass, holding exactly the live articles' entries;</li>
 * <li>{@code P.parts/ID-N.vec}: the progress of a pass, one file per {@value ChunkedEmbedding#CHUNK} texts
 *     embedded, each written whole through a rename. A process killed during its first
 *     embedding loses at most the chunk in flight; the next start reads the parts and embeds
 *     only what they lack. {@code ID} is the process's own, so two pods embedding at once never
 *     write the same file (they may embed the same texts twice; either copy is correct). The
 *     parts a pass read or wrote are removed once its whole set is written.</li>
 * </ul>
 * A file that is absent is a miss; one that is not a regular file, has another format version,
 * fails its checksum or holds a vector that is not finite, not of the model's dimension or (for
 * a normalising model) not of unit length is a miss and a WARN naming the file and the reason.
 * The cache only saves work: it never fails a project and never serves a vector it did not check.
 */
public final class VectorCache {

    private static final Logger LOG = LoggerFactory.getLogger(VectorCache.class);
    /** A temporary file this old in a parts folder was left by a killed writer, not one still writing. */
    private static final Duration STALE_TEMPORARY = Duration.ofMinutes(30);

    private final Path root;
    /** This process's part-file names: its own, so two pods sharing the volume never write one file. */
    private final String writer = UUID.randomUUID().toString().substring(0, 8);
    private final java.util.concurrent.atomic.AtomicLong partsWritten = new java.util.concurrent.atomic.AtomicLong();

    public VectorCache(Path root) {
        this.root = root;
    }

    public Path root() {
        return root;
    }

    /** What one call did: how many texts came from the cache and how many were embedded. */
    public record Outcome(float[][] vectors, int reused, int embedded) {
    }

    /**
     * The vectors of {@code texts} in order: cached ones read, the others embedded by
     * {@code embedder} and written back.
     */
    public Outcome passages(TextEmbedder embedder, String project, List<String> texts) {
        return passages(embedder, project, texts, new EmbeddingProgress());
    }

    /**
     * As {@link #passages(TextEmbedder, String, List)}, reporting to {@code progress} (whose
     * {@link EmbeddingProgress#expect} the caller has announced these texts to). An interrupt
     * between chunks stops the pass with a {@link java.util.concurrent.CancellationException}; the chunks written
     * so far stay for the next start.
     */
    public Outcome passages(TextEmbedder embedder, String project, List<String> texts, EmbeddingProgress progress) {
        Path file = fileFor(embedder.digest(), project);
        Path parts = partsFor(file);
        int dimension = embedder.dimension();
        boolean unit = embedder.settings().normalize();
        List<Hash> hashes = texts.stream().map(Hash::of).toList();

        Map<Hash, float[]> known = new HashMap<>(entries(file, dimension, unit));
        // Exact: the whole file holds these texts and nothing else (identical articles share one entry).
        boolean wholeFileExact = known.size() == new java.util.HashSet<>(hashes).size();
        List<Path> partFiles = listed(parts, ".vec");
        for (Path part : partFiles) {
            known.putAll(entries(part, dimension, unit));
        }
        float[][] out = new float[texts.size()][];
        List<Integer> missing = fill(known, hashes, out, ChunkedEmbedding.all(texts.size()));
        wholeFileExact &= missing.isEmpty() && partFiles.isEmpty();
        if (!missing.isEmpty()) {
            // The same texts under another project name (a second project over one corpus, a renamed one) are the same vectors.
            missing = fromSiblings(file, dimension, unit, hashes, out, missing);
        }
        progress.reused(texts.size() - missing.size(), ChunkedEmbedding.chars(texts) - chars(texts, missing));
        if (!missing.isEmpty()) {
            LOG.info("project {}: {} of {} article vectors from the cache ({} part files), embedding {}", project,
                    texts.size() - missing.size(), texts.size(), partFiles.size(), missing.size());
        }
        List<Path> written = new ArrayList<>();
        ChunkedEmbedding.embed(embedder, texts, missing, out, progress, chunk -> {
            Map<Hash, float[]> entries = new LinkedHashMap<>();
            chunk.forEach(i -> entries.put(hashes.get(i), out[i]));
            Path part = parts.resolve(writer + "-" + partsWritten.getAndIncrement() + ".vec");
            if (write(part, entries, dimension)) {
                written.add(part);
            }
        });
        if (!wholeFileExact) {
            Map<Hash, float[]> whole = new LinkedHashMap<>();
            for (int i = 0; i < out.length; i++) {
                whole.put(hashes.get(i), out[i]);
            }
            if (write(file, whole, dimension)) {
                removeParts(parts, partFiles, written);
            }
        }
        return new Outcome(out, texts.size() - missing.size(), missing.size());
    }

    /** Fills the positions {@code wanted} that {@code entries} holds; returns those it does not. */
    private static List<Integer> fill(Map<Hash, float[]> entries, List<Hash> hashes, float[][] out, List<Integer> wanted) {
        List<Integer> still = new ArrayList<>();
        for (int i : wanted) {
            float[] v = entries.get(hashes.get(i));
            if (v != null) {
                out[i] = v;
            } else {
                still.add(i);
            }
        }
        return still;
    }

    /** Fills what other projects' whole files of the same embedder hold; returns the positions still missing. */
    private static List<Integer> fromSiblings(Path file, int dimension, boolean unit, List<Hash> hashes, float[][] out,
                                              List<Integer> missing) {
        List<Integer> still = missing;
        for (Path sibling : listed(file.getParent(), ".vec")) {
            if (still.isEmpty()) {
                break;
            }
            if (!sibling.equals(file)) {
                still = fill(entries(sibling, dimension, unit), hashes, out, still);
            }
        }
        return still;
    }

    Path fileFor(String embedderDigest, String project) {
        return root.resolve(Hash.of(embedderDigest).hex(16)).resolve(Hash.of(project).hex(16) + ".vec");
    }

    static Path partsFor(Path file) {
        String name = file.getFileName().toString();
        return file.resolveSibling(name.substring(0, name.length() - ".vec".length()) + ".parts");
    }

    /** A file's checked entries; a refused file is logged and reads as empty. */
    private static Map<Hash, float[]> entries(Path file, int dimension, boolean unit) {
        VectorFile.Read read = VectorFile.read(file, dimension, unit);
        if (read instanceof VectorFile.Refused refused) {
            LOG.warn("vector cache file {} not used: {}; its texts are embedded again", file, refused.reason());
        }
        return read instanceof VectorFile.Entries e ? e.vectors() : Map.of();
    }

    /** The names in {@code dir} ending in {@code suffix}, sorted; none when the folder is absent or unreadable. */
    private static List<Path> listed(Path dir, String suffix) {
        try (Stream<Path> listing = Files.list(dir)) {
            return listing.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
        } catch (IOException e) {
            return List.of(); // no folder yet: nothing embedded by this model
        }
    }

    private static boolean write(Path file, Map<Hash, float[]> entries, int dimension) {
        try {
            VectorFile.write(file, entries, dimension);
            return true;
        } catch (IOException | RuntimeException e) {
            // A read-only or full volume costs the next start its time, not this one its project.
            LOG.warn("vector cache {} not written: {}", file, e.getMessage());
            return false;
        }
    }

    /** Removes the parts merged into the whole file, and temporary files a killed writer left. */
    private static void removeParts(Path parts, List<Path> read, List<Path> written) {
        try {
            for (Path p : read) {
                Files.deleteIfExists(p);
            }
            for (Path p : written) {
                Files.deleteIfExists(p);
            }
            Instant stale = Instant.now().minus(STALE_TEMPORARY);
            for (Path tmp : listed(parts, ".tmp")) {
                FileTime modified = Files.getLastModifiedTime(tmp, java.nio.file.LinkOption.NOFOLLOW_LINKS);
                if (modified.toInstant().isBefore(stale)) {
                    Files.deleteIfExists(tmp);
                }
            }
            Files.deleteIfExists(parts); // only when empty: another pod may be writing its own parts
        } catch (IOException e) {
            // A part left behind is read (and removed) by the next complete pass.
        }
    }

    private static long chars(List<String> texts, List<Integer> positions) {
        long n = 0;
        for (int i : positions) {
            n += texts.get(i).length();
        }
        return n;
    }

    /** A sha256, compared by value. */
    record Hash(byte[] bytes) {
        static Hash of(String text) {
            return new Hash(VectorFile.sha256().digest(text.getBytes(StandardCharsets.UTF_8)));
        }

        String hex(int chars) {
            return HexFormat.of().formatHex(bytes).substring(0, chars);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Hash h && java.util.Arrays.equals(bytes, h.bytes);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(bytes);
        }
    }
}
