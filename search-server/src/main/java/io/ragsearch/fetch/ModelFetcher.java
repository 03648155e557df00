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
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
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
    /** A server that sends nothing for this long (headers or body) ends the fetch: an init container must not hang for ever. */
    static final Duration READ_TIMEOUT = Duration.ofSeconds(60);
    /**
     * The whole fetch, redirects included: a server sending a byte every 50 s never trips the read
     * timeout and kept a fetch (an init container) going for ever. An hour takes the default 4 GiB
     * cap at 1.2 MB/s; a slower link gives more with --deadline-seconds.
     */
    public static final Duration DEADLINE = Duration.ofHours(1);
    /** Redirects followed, each checked: http(s) only, never from https down to http, no user information. */
    static final int MAX_REDIRECTS = 5;
    private static final java.util.Set<Integer> REDIRECTS = java.util.Set.of(301, 302, 303, 307, 308);

    private final long maxBytes;
    private final long maxUnpackedBytes;
    private final Duration readTimeout;
    private final Duration deadline;

    /**
     * @param maxBytes the largest archive accepted (a wrong URL must not fill the volume)
     * @param maxUnpackedBytes the most it may unpack to (a 1 MB zip can unpack to gigabytes)
     */
    public ModelFetcher(long maxBytes, long maxUnpackedBytes) {
        this(maxBytes, maxUnpackedBytes, READ_TIMEOUT, DEADLINE);
    }

    /** @param deadline the most the whole download may take */
    public ModelFetcher(long maxBytes, long maxUnpackedBytes, Duration deadline) {
        this(maxBytes, maxUnpackedBytes, READ_TIMEOUT, deadline);
    }

    ModelFetcher(long maxBytes, long maxUnpackedBytes, Duration readTimeout, Duration deadline) {
        this.maxBytes = maxBytes;
        this.maxUnpackedBytes = maxUnpackedBytes;
        this.readTimeout = readTimeout;
        this.deadline = deadline;
    }

    /** A URL as messages and logs show it: {@code user:password@} replaced by {@code ***@}. */
    public static String shown(URI url) {
        if (url.getRawUserInfo() == null) {
            return url.toString();
        }
        String text = url.toString();
        return text.replace(url.getRawUserInfo() + "@", "***@");
    }

    public enum Outcome { FETCHED, ALREADY_PRESENT }

    public Outcome fetch(URI url, String sha256, Path target) throws IOException {
        String expected = sha256.strip().toLowerCase();
        if (!expected.matches("[0-9a-f]{64}")) {
            throw new IOException("--sha256 must be 64 hex digits, got '" + sha256 + "'");
        }
        if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme())) {
            throw new IOException("only http and https URLs are fetched, got " + shown(url));
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
                throw new IOException("sha256 mismatch for " + shown(url) + ": expected " + expected + ", got " + actual
                        + " (the file changed, or the digest in the spec is wrong)");
            }
            deleteTree(staging);
            Files.createDirectories(staging);
            unzip(archive, staging, maxUnpackedBytes);
            for (String required : new String[]{"model.onnx", "tokenizer.json"}) {
                if (!Files.isRegularFile(staging.resolve(required))) {
                    throw new IOException(shown(url) + " holds no " + required + " at its top level");
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
        // Redirects are followed here, one checked hop at a time, not by the client.
        HttpClient http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).followRedirects(HttpClient.Redirect.NEVER).build();
        URI at = url;
        long endsAt = System.nanoTime() + deadline.toNanos();
        for (int hops = 0; ; hops++) {
            Sink sink = new Sink(to, maxBytes, at);
            HttpResponse<Void> response = exchange(http, at, sink, endsAt);
            int status = response.statusCode();
            if (REDIRECTS.contains(status)) {
                if (hops == MAX_REDIRECTS) {
                    throw new IOException(shown(url) + ": more than " + MAX_REDIRECTS + " redirects");
                }
                at = redirect(at, response.headers().firstValue("Location").orElse(null));
                continue;
            }
            if (status != 200) {
                throw new IOException(shown(at) + " answered HTTP " + status);
            }
            return sink.hex();
        }
    }

    /** Where a redirect may lead: an http(s) address, not down from https to http, without user information. */
    static URI redirect(URI from, String location) throws IOException {
        if (location == null || location.isBlank()) {
            throw new IOException(shown(from) + " redirected without a Location");
        }
        URI next;
        try {
            next = from.resolve(location.strip());
        } catch (IllegalArgumentException e) {
            throw new IOException(shown(from) + " redirected to an address that is not a URL");
        }
        if (!"http".equals(next.getScheme()) && !"https".equals(next.getScheme())) {
            throw new IOException(shown(from) + " redirected to a " + next.getScheme() + " address; only http(s) is fetched");
        }
        if ("https".equals(from.getScheme()) && "http".equals(next.getScheme())) {
            throw new IOException(shown(from) + " redirected from https down to http (" + shown(next) + "); refused");
        }
        if (next.getRawUserInfo() != null) {
            throw new IOException(shown(from) + " redirected to an address with user information; refused");
        }
        return next;
    }

    /**
     * One request; its body goes through the sink. A server silent for the read timeout ends it,
     * and so does the fetch's deadline ({@code endsAt}, System.nanoTime) however steadily it trickles.
     */
    private HttpResponse<Void> exchange(HttpClient http, URI at, Sink sink, long endsAt) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(at).timeout(readTimeout).GET().build();
        java.util.concurrent.CompletableFuture<HttpResponse<Void>> response = http.sendAsync(request, info -> {
            sink.keep = info.statusCode() == 200;
            return HttpResponse.BodySubscribers.fromSubscriber(sink);
        });
        try {
            while (true) {
                try {
                    sink.done.get(250, java.util.concurrent.TimeUnit.MILLISECONDS);
                    return response.get(readTimeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    if (response.isCompletedExceptionally()) {
                        response.join();
                    }
                    if (System.nanoTime() - endsAt > 0) {
                        sink.cancel();
                        response.cancel(true);
                        throw new IOException("fetching " + shown(at) + " did not finish within " + seconds(deadline) + " ("
                                + sink.received() + " bytes received): the server sends too slowly; retry, or give more time "
                                + "with --deadline-seconds");
                    }
                    if (sink.silentNanos() > readTimeout.toNanos()) {
                        sink.cancel();
                        response.cancel(true);
                        throw new IOException("no data from " + shown(at) + " for " + readTimeout.toSeconds()
                                + " s: the server stopped sending");
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            sink.cancel();
            throw new IOException("interrupted while fetching " + shown(at), e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.CompletionException e) {
            sink.cancel();
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof SinkException own) {
                throw new IOException(own.getMessage(), own);
            }
            throw new IOException("cannot fetch " + shown(at) + ": " + (cause instanceof java.net.http.HttpTimeoutException
                    ? "no answer within " + readTimeout.toSeconds() + " s"
                    : cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage()), cause);
        } finally {
            sink.closeQuietly();
        }
    }

    /** The sink's own refusal (the archive is larger than allowed, the file cannot be written). */
    private static final class SinkException extends IOException {
        SinkException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Writes a 200 answer's body to the archive file (hashing it, capped), discards any other
     * answer's body, and records when the last bytes arrived.
     */
    private static final class Sink implements java.util.concurrent.Flow.Subscriber<List<java.nio.ByteBuffer>> {
        final java.util.concurrent.CompletableFuture<Void> done = new java.util.concurrent.CompletableFuture<>();
        volatile boolean keep;
        private final Path to;
        private final long maxBytes;
        private final URI url;
        private final MessageDigest digest = sha256();
        private volatile long lastData = System.nanoTime();
        private volatile java.util.concurrent.Flow.Subscription subscription;
        private OutputStream out;
        private long total;
        /** Bytes of any answer, kept or not (what the deadline's message reports). */
        private volatile long received;

        Sink(Path to, long maxBytes, URI url) {
            this.to = to;
            this.maxBytes = maxBytes;
            this.url = url;
        }

        long silentNanos() {
            return System.nanoTime() - lastData;
        }

        long received() {
            return received;
        }

        String hex() {
            return HexFormat.of().formatHex(digest.digest());
        }

        @Override
        public void onSubscribe(java.util.concurrent.Flow.Subscription s) {
            subscription = s;
            lastData = System.nanoTime();
            s.request(1);
        }

        @Override
        public void onNext(List<java.nio.ByteBuffer> buffers) {
            lastData = System.nanoTime();
            try {
                for (java.nio.ByteBuffer b : buffers) {
                    int n = b.remaining();
                    received += n;
                    if (!keep) {
                        b.position(b.limit());
                        continue;
                    }
                    total += n;
                    if (total > maxBytes) {
                        throw new SinkException(shown(url) + " is larger than " + maxBytes + " bytes (--max-bytes)", null);
                    }
                    if (out == null) {
                        out = Files.newOutputStream(to);
                    }
                    byte[] bytes = new byte[n];
                    b.get(bytes);
                    digest.update(bytes);
                    out.write(bytes);
                }
            } catch (IOException e) {
                subscription.cancel();
                done.completeExceptionally(e instanceof SinkException ? e : new SinkException("cannot write the download: "
                        + e.getClass().getSimpleName(), e));
                return;
            }
            subscription.request(1);
        }

        @Override
        public void onError(Throwable t) {
            done.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            try {
                if (keep && out == null) {
                    out = Files.newOutputStream(to); // an empty body is an empty archive
                }
                closeQuietly();
                done.complete(null);
            } catch (IOException e) {
                done.completeExceptionally(e);
            }
        }

        void cancel() {
            java.util.concurrent.Flow.Subscription s = subscription;
            if (s != null) {
                s.cancel();
            }
        }

        synchronized void closeQuietly() {
            if (out != null) {
                try {
                    out.close();
                } catch (IOException e) {
                    // the download fails or has finished either way
                }
                out = null;
            }
        }
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

    private static String seconds(Duration d) {
        return d.toSeconds() + " s";
    }
}
