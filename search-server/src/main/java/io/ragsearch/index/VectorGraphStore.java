package io.ragsearch.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HNSW graphs kept on disk beside the vector cache, so that a start over vectors a graph was
 * already built for reopens it (memory-mapped) instead of building it again: minutes at 100k
 * articles and more (docs/benchmarks.md). A graph is named by the sha256 of the exact vectors it
 * indexes and the settings that shape it, so a changed corpus or model never reads a stale one.
 * Graphs are written under a temporary name and renamed into place: two pods building at once
 * each finish, and one of their graphs (identical in content) stays. The store only saves work:
 * when it cannot be used the graph is built in memory, with a log line.
 */
public final class VectorGraphStore {

    private static final Logger LOG = LoggerFactory.getLogger(VectorGraphStore.class);

    private final Path root;

    public VectorGraphStore(Path root) {
        this.root = root;
    }

    /** The vector index of one project's vectors: exact below the settings' threshold, else the graph, reopened or built here. */
    public VectorIndex index(String project, float[][] vectors, VectorSearchSettings settings) throws IOException {
        VectorMatrix matrix = VectorMatrix.of(vectors);
        if (!settings.approximate(matrix.rows())) {
            return new ExactVectors(matrix);
        }
        String key = digest(matrix);
        Path projectDir = root.resolve(hex(sha256(project.getBytes(StandardCharsets.UTF_8))).substring(0, 16));
        Path graphDir = projectDir.resolve("graph-" + key.substring(0, 16));
        try {
            HnswVectors reopened = reopen(matrix, settings, graphDir, key);
            if (reopened != null) {
                LOG.info("project {}: vector graph of {} articles reopened from {}", project, matrix.rows(), graphDir);
                return reopened;
            }
            Files.createDirectories(projectDir);
            Path building = Files.createTempDirectory(projectDir, ".building-");
            long t0 = System.nanoTime();
            HnswVectors.build(matrix, settings, building, key).close();
            deleteTree(graphDir); // another key's graph (other settings) under the same name, or a broken one
            try {
                Files.move(building, graphDir, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
                deleteTree(building); // another pod renamed the same graph into place first
            } catch (AtomicMoveNotSupportedException e) {
                deleteTree(building);
                throw e;
            }
            LOG.info("project {}: vector graph of {} articles built in {} ms, kept in {}", project, matrix.rows(),
                    (System.nanoTime() - t0) / 1_000_000, graphDir);
            removeOthers(projectDir, graphDir);
            HnswVectors opened = HnswVectors.openIfCurrent(matrix, settings, graphDir, key);
            if (opened == null) {
                throw new IOException("the graph just kept in " + graphDir + " does not reopen");
            }
            return opened;
        } catch (IOException | RuntimeException e) {
            LOG.warn("project {}: vector graph store {} unusable ({}); building the graph in memory", project, root, e.toString());
            return HnswVectors.build(matrix, settings, null, key);
        }
    }

    /** The kept graph for exactly these vectors and settings; null when there is none or it cannot be read (a miss, not an error). */
    private static HnswVectors reopen(VectorMatrix matrix, VectorSearchSettings settings, Path graphDir, String key) {
        if (!Files.isDirectory(graphDir)) {
            return null;
        }
        try {
            return HnswVectors.openIfCurrent(matrix, settings, graphDir, key);
        } catch (IOException | RuntimeException e) {
            LOG.warn("vector graph {} unreadable ({}): building it again", graphDir, e.toString());
            return null;
        }
    }

    /**
     * Older graphs of the project (earlier corpus versions), and builds left by a killed process:
     * a day old at least, since another pod may be building beside this one right now.
     */
    private static void removeOthers(Path projectDir, Path keep) {
        long dayAgo = System.currentTimeMillis() - 24L * 3600 * 1000;
        try (Stream<Path> entries = Files.list(projectDir)) {
            for (Path p : entries.filter(p -> !p.equals(keep)).toList()) {
                String name = p.getFileName().toString();
                if (name.startsWith("graph-") || (name.startsWith(".building-") && Files.getLastModifiedTime(p).toMillis() < dayAgo)) {
                    deleteTree(p);
                }
            }
        } catch (IOException e) {
            LOG.debug("could not tidy {}: {}", projectDir, e.toString());
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** sha256 over the dimension and every value (little-endian float bits). */
    static String digest(VectorMatrix matrix) {
        MessageDigest sha = newSha256();
        ByteBuffer buffer = ByteBuffer.allocate(Float.BYTES * Math.max(1, matrix.dimension())).order(ByteOrder.LITTLE_ENDIAN);
        sha.update(ByteBuffer.allocate(8).putInt(matrix.rows()).putInt(matrix.dimension()).array());
        for (int i = 0; i < matrix.rows(); i++) {
            buffer.clear();
            buffer.asFloatBuffer().put(matrix.row(i));
            sha.update(buffer.array());
        }
        return hex(sha.digest());
    }

    private static byte[] sha256(byte[] bytes) {
        return newSha256().digest(bytes);
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
