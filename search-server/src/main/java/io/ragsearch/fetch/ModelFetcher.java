package io.ragsearch.fetch;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Downloads a model archive (.zip holding model.onnx and tokenizer.json), checks its sha256 and
 * unpacks it into a directory. Runs as the pod's init container: a restart after success finds
 * the same digest recorded and does nothing; a failure leaves no half-written model behind.
 *
 * <p>The target directory is replaced as a whole, so fetch only ever replaces a directory it
 * made itself (its marker file records the digest): an empty or absent directory is fine, a
 * directory with anything else in it — a user's files, {@code .}, {@code /} — is refused.
 */
public final class ModelFetcher {

    /** fetch's own marker, holding the digest of what it unpacked. */
    static final String DIGEST_FILE = ".ragsearch-fetch";
    /** A zip's entries are capped in number too: a million empty entries is an attack, not a model. */
    static final int MAX_ENTRIES = 10_000;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(20);

    private final long maxBytes;
    private final long maxUnpackedBytes;

    /**
     * @param maxBytes the largest archive accepted (a wrong URL must not fill the volume)
     * @param maxUnpackedBytes the most it may unpack to (a 1 MB zip can unpack to gigabytes)
     */
    public ModelFetcher(long maxBytes, long maxUnpackedBytes) {
        this.maxBytes = maxBytes;
        this.maxUnpackedBytes = maxUnpackedBytes;
    }

    public enum Outcome { FETCHED, ALREADY_PRESENT }

    public Outcome fetch(URI url, String sha256, Path target) throws IOException {
        String expected = sha256.strip().toLowerCase();
        if (!expected.matches("[0-9a-f]{64}")) {
            throw new IOException("--sha256 must be 64 hex digits, got '" + sha256 + "'");
        }
        if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme())) {
            throw new IOException("only http and https URLs are fetched, got " + url);
        }
        Path recorded = target.resolve(DIGEST_FILE);
        if (Files.isRegularFile(recorded) && Files.readString(recorded).strip().equals(expected)
                && Files.isRegularFile(target.resolve("model.onnx")) && Files.isRegularFile(target.resolve("tokenizer.json"))) {
            return Outcome.ALREADY_PRESENT;
        }
        refuseForeign(target);
        Path parent = target.toAbsolutePath().normalize().getParent();
        Files.createDirectories(parent);
        String prefix = "." + target.toAbsolutePath().normalize().getFileName() + ".download-";
        removeStaleDownloads(parent, prefix);
        Path archive = Files.createTempFile(parent, prefix, ".zip");
        archive.toFile().deleteOnExit(); // an interrupted fetch (Ctrl-C, SIGTERM) leaves no archive behind
        Path staging = parent.resolve("." + target.toAbsolutePath().normalize().getFileName() + ".partial");
        try {
            String actual = download(url, archive);
            if (!actual.equals(expected)) {
                throw new IOException("sha256 mismatch for " + url + ": expected " + expected + ", got " + actual
                        + " (the file changed, or the digest in the spec is wrong)");
            }
            deleteTree(staging);
            Files.createDirectories(staging);
            unzip(archive, staging, maxUnpackedBytes);
            for (String required : new String[]{"model.onnx", "tokenizer.json"}) {
                if (!Files.isRegularFile(staging.resolve(required))) {
                    throw new IOException(url + " holds no " + required + " at its top level");
                }
            }
            Files.writeString(staging.resolve(DIGEST_FILE), expected + "\n");
            deleteTree(target);
            Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
            return Outcome.FETCHED;
        } finally {
            Files.deleteIfExists(archive);
            deleteTree(staging);
        }
    }

    /** A directory fetch may replace: absent, empty, or one it made itself; never the working directory or a root. */
    static void refuseForeign(Path target) throws IOException {
        Path absolute = target.toAbsolutePath().normalize();
        Path cwd = Path.of("").toAbsolutePath().normalize();
        if (absolute.getParent() == null || cwd.startsWith(absolute)) {
            throw new IOException("--to " + target + " is the working directory, one of its parents or a root; "
                    + "give a directory of its own (it is replaced as a whole)");
        }
        if (!Files.exists(absolute, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (!Files.isDirectory(absolute, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("--to " + target + " exists and is not a directory");
        }
        boolean ours = Files.isRegularFile(absolute.resolve(DIGEST_FILE));
        try (Stream<Path> entries = Files.list(absolute)) {
            if (!ours && entries.findAny().isPresent()) {
                throw new IOException("--to " + target + " is not empty and was not made by fetch (no " + DIGEST_FILE
                        + " in it); fetch replaces its directory as a whole, so give an empty or new one");
            }
        }
    }

    /** Archives a killed fetch left behind (SIGKILL runs no cleanup). */
    private static void removeStaleDownloads(Path parent, String prefix) throws IOException {
        try (Stream<Path> entries = Files.list(parent)) {
            for (Path p : entries.filter(p -> p.getFileName().toString().startsWith(prefix)
                    && p.getFileName().toString().endsWith(".zip")).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private String download(URI url, Path to) throws IOException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NORMAL).build();
        HttpResponse<InputStream> response;
        try {
            response = http.send(HttpRequest.newBuilder(url).GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while fetching " + url, e);
        } catch (IOException e) {
            throw new IOException("cannot fetch " + url + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), e);
        }
        MessageDigest digest = sha256();
        try (InputStream in = response.body();
             OutputStream out = new DigestOutputStream(Files.newOutputStream(to), digest)) {
            if (response.statusCode() != 200) {
                throw new IOException(url + " answered HTTP " + response.statusCode());
            }
            byte[] buffer = new byte[1 << 16];
            long total = 0;
            for (int n; (n = in.read(buffer)) > 0; ) {
                total += n;
                if (total > maxBytes) {
                    throw new IOException(url + " is larger than " + maxBytes + " bytes (--max-bytes)");
                }
                out.write(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private static void unzip(Path archive, Path into, long maxUnpackedBytes) throws IOException {
        int entries = 0;
        long unpacked = 0;
        try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(archive))) {
            for (ZipEntry entry; (entry = zip.getNextEntry()) != null; ) {
                if (++entries > MAX_ENTRIES) {
                    throw new IOException("the archive has more than " + MAX_ENTRIES + " entries");
                }
                Path out = into.resolve(entry.getName()).normalize();
                // An entry like ../../etc/x must not write outside the model directory.
                if (!out.startsWith(into)) {
                    throw new IOException("archive entry escapes the target directory: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(out);
                } else {
                    Files.createDirectories(out.getParent());
                    unpacked += copyCapped(zip, out, maxUnpackedBytes - unpacked);
                }
            }
        }
        if (entries == 0) {
            throw new IOException("the download is not a zip archive (or an empty one)");
        }
    }

    /** Copies one entry, counting what it really unpacks to (the sizes in a zip's headers can lie). */
    private static long copyCapped(InputStream in, Path out, long remaining) throws IOException {
        long written = 0;
        byte[] buffer = new byte[1 << 16];
        try (OutputStream o = Files.newOutputStream(out)) {
            for (int n; (n = in.read(buffer)) > 0; ) {
                written += n;
                if (written > remaining) {
                    throw new IOException("the archive unpacks to more than the limit (--max-unpacked-bytes)");
                }
                o.write(buffer, 0, n);
            }
        }
        return written;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
