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
 */
public final class ModelFetcher {

    static final String DIGEST_FILE = ".sha256";
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(20);

    private final long maxBytes;

    /** @param maxBytes the largest archive accepted (a wrong URL must not fill the volume) */
    public ModelFetcher(long maxBytes) {
        this.maxBytes = maxBytes;
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
        Path parent = target.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path archive = Files.createTempFile(parent, ".download-", ".zip");
        Path staging = parent.resolve("." + target.getFileName() + ".partial");
        try {
            String actual = download(url, archive);
            if (!actual.equals(expected)) {
                throw new IOException("sha256 mismatch for " + url + ": expected " + expected + ", got " + actual
                        + " (the file changed, or the digest in the spec is wrong)");
            }
            deleteTree(staging);
            Files.createDirectories(staging);
            unzip(archive, staging);
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

    private static void unzip(Path archive, Path into) throws IOException {
        boolean any = false;
        try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(archive))) {
            for (ZipEntry entry; (entry = zip.getNextEntry()) != null; ) {
                any = true;
                Path out = into.resolve(entry.getName()).normalize();
                // An entry like ../../etc/x must not write outside the model directory.
                if (!out.startsWith(into)) {
                    throw new IOException("archive entry escapes the target directory: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(out);
                } else {
                    Files.createDirectories(out.getParent());
                    Files.copy(zip, out, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        if (!any) {
            throw new IOException("the download is not a zip archive (or an empty one)");
        }
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
