package io.ragsearch.embed;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Passage vectors kept on disk between starts, so that a directory or ConfigMap project is
 * embedded once per model and content, not at every start of every pod. Entries are addressed
 * by the sha256 of the text embedded, under a folder per embedder digest (which names the model
 * file and every setting that changes passage vectors): a changed article is embedded again, an
 * unchanged one never, and a cache written by another model or setting is never read.
 *
 * <p>One file per project, rewritten whole (temporary file, then an atomic rename) when its
 * entries change: readers never see half a file, and two pods writing at once leave one whole
 * file, either of which is correct. A file that cannot be read is a miss, never an error: the
 * cache only saves work.
 */
public final class VectorCache {

    private static final Logger LOG = LoggerFactory.getLogger(VectorCache.class);
    private static final int MAGIC = 0x52535643; // "RSVC"
    private static final int VERSION = 1;
    private static final int HASH_BYTES = 32;

    private final Path root;

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
        Path file = fileFor(embedder.digest(), project);
        Map<Hash, float[]> own = read(file, embedder.dimension());
        float[][] out = new float[texts.size()][];
        List<Hash> hashes = texts.stream().map(Hash::of).toList();
        List<Integer> missing = fill(own, hashes, out, IntStream.range(0, texts.size()).boxed().toList());
        // The file is rewritten unless it held exactly these texts: it never keeps entries no longer live.
        boolean ownFileExact = missing.isEmpty() && own.size() == texts.size();
        if (!missing.isEmpty()) {
            // The same texts under another project name (a second project over one corpus, a renamed one) are the same vectors.
            missing = fromSiblings(file, embedder.dimension(), hashes, out, missing);
        }
        if (!missing.isEmpty()) {
            float[][] fresh = embedder.embedPassages(missing.stream().map(texts::get).toList());
            for (int j = 0; j < fresh.length; j++) {
                out[missing.get(j)] = fresh[j];
            }
        }
        if (!ownFileExact) {
            write(file, hashes, out, embedder.dimension());
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

    /** Fills what other projects' files of the same embedder hold; returns the positions still missing. */
    private static List<Integer> fromSiblings(Path file, int dimension, List<Hash> hashes, float[][] out, List<Integer> missing) {
        List<Path> siblings;
        try (var listing = Files.list(file.getParent())) {
            siblings = listing.filter(p -> p.getFileName().toString().endsWith(".vec") && !p.equals(file)).sorted().toList();
        } catch (IOException e) {
            return missing; // no folder yet: nothing embedded by this model
        }
        List<Integer> still = missing;
        for (Path sibling : siblings) {
            if (still.isEmpty()) {
                break;
            }
            still = fill(read(sibling, dimension), hashes, out, still);
        }
        return still;
    }

    Path fileFor(String embedderDigest, String project) {
        return root.resolve(Hash.of(embedderDigest).hex(16)).resolve(Hash.of(project).hex(16) + ".vec");
    }

    private static Map<Hash, float[]> read(Path file, int dimension) {
        Map<Hash, float[]> entries = new HashMap<>();
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
            if (in.readInt() != MAGIC || in.readInt() != VERSION) {
                throw new IOException("not a vector cache file of this version");
            }
            int dim = in.readInt();
            int count = in.readInt();
            if (dim != dimension || count < 0) {
                throw new IOException("dimension " + dim + " where the model gives " + dimension);
            }
            for (int i = 0; i < count; i++) {
                byte[] h = new byte[HASH_BYTES];
                in.readFully(h);
                float[] v = new float[dim];
                for (int d = 0; d < dim; d++) {
                    v[d] = in.readFloat();
                }
                entries.put(new Hash(h), v);
            }
            return entries;
        } catch (NoSuchFileException e) {
            return Map.of();
        } catch (IOException | RuntimeException e) {
            LOG.warn("vector cache {} unreadable ({}); embedding again", file, e.getMessage());
            return Map.of();
        }
    }

    private static void write(Path file, List<Hash> hashes, float[][] vectors, int dimension) {
        try {
            Files.createDirectories(file.getParent());
            Path tmp = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
            try {
                try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16))) {
                    out.writeInt(MAGIC);
                    out.writeInt(VERSION);
                    out.writeInt(dimension);
                    out.writeInt(vectors.length);
                    for (int i = 0; i < vectors.length; i++) {
                        out.write(hashes.get(i).bytes());
                        for (float f : vectors[i]) {
                            out.writeFloat(f);
                        }
                    }
                }
                try {
                    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException | RuntimeException e) {
            // A read-only or full volume costs the next start its time, not this one its project.
            LOG.warn("vector cache {} not written: {}", file, e.getMessage());
        }
    }

    /** A sha256, compared by value. */
    record Hash(byte[] bytes) {
        static Hash of(String text) {
            try {
                return new Hash(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every Java runtime has SHA-256", e);
            }
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
