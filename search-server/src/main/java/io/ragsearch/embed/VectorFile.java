package io.ragsearch.embed;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.DigestInputStream;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One file of the vector cache (format version 2), written whole through a rename and read
 * only when everything in it checks out:
 *
 * <pre>
 * int "RSVC"  int version (2)  int dimension  int count
 * count × ( 32-byte sha256 of the text embedded, dimension × float32 )
 * 32-byte sha256 of every byte above                       (all integers big-endian)
 * </pre>
 *
 * The trailing checksum covers the order of entries too, so two valid vectors swapped between
 * entries (which no per-vector check can see) make the file unreadable, as do a torn write and
 * a flipped bit. It is not a signature: whoever may write the cache volume can write a file that
 * passes, so the volume must be writable by the server alone (the pod's own /tmp or its claim).
 *
 * <p>Reading never blocks on what is not a file: the path's own attributes (links not followed)
 * must say regular file before it is opened, it is opened without following links, and no more
 * bytes are read than the header promises and the attributes' size confirms. A FIFO, a device,
 * a directory or a link named like a cache file is refused without being opened.
 */
final class VectorFile {

    static final int MAGIC = 0x52535643; // "RSVC"
    static final int VERSION = 2;
    static final int HASH_BYTES = 32;
    private static final int HEADER_BYTES = 4 * Integer.BYTES;

    private VectorFile() {
    }

    /** A file's entries, or why it was not used. */
    sealed interface Read permits Entries, Absent, Refused {
    }

    /** Every entry, in file order. */
    record Entries(Map<VectorCache.Hash, float[]> vectors) implements Read {
    }

    /** No file at that path: a plain miss, nothing to log. */
    record Absent() implements Read {
    }

    /** A file that is not a usable cache file; {@code reason} goes to the log. */
    record Refused(String reason) implements Read {
    }

    /** Expected size of a file of {@code count} entries of {@code dimension} values. */
    static long size(long count, int dimension) {
        return HEADER_BYTES + count * (HASH_BYTES + (long) dimension * Float.BYTES) + HASH_BYTES;
    }

    static Read read(Path file, int dimension, boolean unitLength) {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return new Absent();
        } catch (IOException e) {
            return new Refused("attributes unreadable: " + e.getMessage());
        }
        if (!attributes.isRegularFile()) {
            return new Refused("not a regular file (" + kind(attributes) + "), not opened");
        }
        long size = attributes.size();
        if (size < HEADER_BYTES) {
            return new Refused("cut short: " + size + " bytes");
        }
        // NOFOLLOW_LINKS on open too: a link put in place after the check above fails to open.
        try (SeekableByteChannel channel = Files.newByteChannel(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
             InputStream raw = new BufferedInputStream(Channels.newInputStream(channel), 1 << 16)) {
            MessageDigest sha = sha256();
            DataInputStream in = new DataInputStream(new DigestInputStream(raw, sha));
            int magic = in.readInt();
            int version = in.readInt();
            if (magic != MAGIC) {
                return new Refused("not a vector cache file");
            }
            if (version != VERSION) {
                return new Refused("format version " + version + ", this server reads " + VERSION);
            }
            int dim = in.readInt();
            int count = in.readInt();
            if (dim != dimension) {
                return new Refused("dimension " + dim + " where the model gives " + dimension);
            }
            if (count < 0 || size != size(count, dimension)) {
                return new Refused(size + " bytes where " + count + " entries take " + size(Math.max(0, count), dimension));
            }
            Map<VectorCache.Hash, float[]> entries = new LinkedHashMap<>(Math.min(count, 1 << 20) * 4 / 3 + 16);
            for (int i = 0; i < count; i++) {
                byte[] h = new byte[HASH_BYTES];
                in.readFully(h);
                float[] v = new float[dim];
                for (int d = 0; d < dim; d++) {
                    v[d] = in.readFloat();
                }
                var problem = VectorCheck.problem(v, dimension, unitLength);
                if (problem.isPresent()) {
                    return new Refused("entry " + i + ": " + problem.get());
                }
                entries.put(new VectorCache.Hash(h), v);
            }
            byte[] expected = sha.digest();
            byte[] stored = raw.readNBytes(HASH_BYTES);
            if (!Arrays.equals(expected, stored)) {
                return new Refused("checksum mismatch (changed or torn after it was written)");
            }
            return new Entries(entries);
        } catch (NoSuchFileException e) {
            return new Absent(); // removed between the check and the open (another pod merged its parts)
        } catch (EOFException e) {
            return new Refused("cut short while reading");
        } catch (IOException | RuntimeException e) {
            return new Refused(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    /** Writes {@code entries} to {@code file} through a temporary file in the same folder and a rename. */
    static void write(Path file, Map<VectorCache.Hash, float[]> entries, int dimension) throws IOException {
        Files.createDirectories(file.getParent());
        Path tmp = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
        try {
            MessageDigest sha = sha256();
            try (OutputStream raw = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
                DataOutputStream out = new DataOutputStream(new DigestOutputStream(raw, sha));
                out.writeInt(MAGIC);
                out.writeInt(VERSION);
                out.writeInt(dimension);
                out.writeInt(entries.size());
                for (Map.Entry<VectorCache.Hash, float[]> e : entries.entrySet()) {
                    out.write(e.getKey().bytes());
                    for (float f : e.getValue()) {
                        out.writeFloat(f);
                    }
                }
                out.flush();
                raw.write(sha.digest());
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static String kind(BasicFileAttributes a) {
        if (a.isDirectory()) {
            return "a directory";
        }
        if (a.isSymbolicLink()) {
            return "a symbolic link";
        }
        return "a FIFO, socket or device";
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
