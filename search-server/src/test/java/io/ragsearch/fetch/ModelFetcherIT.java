package io.ragsearch.fetch;

import com.sun.net.httpserver.HttpServer;
import io.ragsearch.cli.RagSearchCli;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The init container's fetch against a real HTTP server on loopback. */
class ModelFetcherIT {
    private HttpServer server;
    private final Map<String, byte[]> files = new ConcurrentHashMap<>();
    private final AtomicInteger downloads = new AtomicInteger();
    private final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);

    @BeforeEach
    void serve() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        // A server that sends its headers and a few bytes, then nothing (issue 21: fetch hung for ever).
        server.createContext("/stall.zip", ex -> {
            ex.sendResponseHeaders(200, 1_000_000);
            ex.getResponseBody().write(new byte[1_000]);
            ex.getResponseBody().flush();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
        });
        // Issue 32: a byte now and then, each well within the read timeout: it kept a fetch going for ever.
        server.createContext("/trickle.zip", ex -> {
            ex.sendResponseHeaders(200, 1_000_000);
            try {
                while (!release.await(200, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                    ex.getResponseBody().write('x');
                    ex.getResponseBody().flush();
                }
            } catch (InterruptedException | IOException e) {
                // the fetch gave up and closed the connection, or the test is over
            }
            ex.close();
        });
        server.createContext("/silent.zip", ex -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
        });
        server.createContext("/redirect", ex -> {
            String to = switch (ex.getRequestURI().getPath()) {
                case "/redirect/loop" -> "/redirect/loop";
                case "/redirect/ftp" -> "ftp://127.0.0.1/model.zip";
                case "/redirect/userinfo" -> "http://user:secret@127.0.0.1:" + server.getAddress().getPort() + "/good.zip";
                default -> "/good.zip";
            };
            ex.getResponseHeaders().add("Location", to);
            ex.sendResponseHeaders(302, -1);
            ex.close();
        });
        server.createContext("/", ex -> {
            byte[] body = files.get(ex.getRequestURI().getPath());
            downloads.incrementAndGet();
            ex.sendResponseHeaders(body == null ? 404 : 200, body == null ? -1 : body.length);
            try (OutputStream out = ex.getResponseBody()) {
                if (body != null) {
                    out.write(body);
                }
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.stop(0);
    }

    @Test
    void fetchesVerifiesUnpacksAndSkipsWhenAlreadyThere(@TempDir Path dir) throws Exception {
        byte[] zip = zip(Map.of("model.onnx", "onnx-bytes", "tokenizer.json", "{}", "config.json", "{}"));
        files.put("/ce.zip", zip);
        Path target = dir.resolve("models/reranker");
        StringWriter out = new StringWriter();
        var cli = RagSearchCli.commandLine();
        cli.setOut(new PrintWriter(out));
        int exit = cli.execute("fetch", "--url", url("/ce.zip").toString(), "--sha256", sha256(zip), "--to", target.toString());
        assertEquals(0, exit);
        assertEquals("onnx-bytes", Files.readString(target.resolve("model.onnx")));
        assertTrue(Files.isRegularFile(target.resolve("tokenizer.json")));

        // An init container that runs again finds the model and downloads nothing.
        int before = downloads.get();
        assertEquals(ModelFetcher.Outcome.ALREADY_PRESENT, new ModelFetcher(1 << 20, 1 << 20).fetch(url("/ce.zip"), sha256(zip), target));
        assertEquals(before, downloads.get());
    }

    @Test
    void aWrongDigestLeavesNothingBehind(@TempDir Path dir) throws Exception {
        byte[] zip = zip(Map.of("model.onnx", "x", "tokenizer.json", "{}"));
        files.put("/ce.zip", zip);
        Path target = dir.resolve("reranker");
        IOException e = assertThrows(IOException.class,
                () -> new ModelFetcher(1 << 20, 1 << 20).fetch(url("/ce.zip"), "0".repeat(64), target));
        assertTrue(e.getMessage().contains("sha256 mismatch") && e.getMessage().contains(sha256(zip)), e.getMessage());
        assertFalse(Files.exists(target));
        try (var left = Files.list(dir)) {
            assertEquals(0, left.count(), "no temporary files left");
        }
    }

    @Test
    void badArchivesAndUrlsAreClearErrors(@TempDir Path dir) throws Exception {
        byte[] plain = "not a zip".getBytes(StandardCharsets.UTF_8);
        files.put("/model.onnx", plain);
        IOException notZip = assertThrows(IOException.class,
                () -> new ModelFetcher(1 << 20, 1 << 20).fetch(url("/model.onnx"), sha256(plain), dir.resolve("a")));
        assertTrue(notZip.getMessage().contains("not a zip archive"), notZip.getMessage());

        byte[] noTokenizer = zip(Map.of("model.onnx", "x"));
        files.put("/half.zip", noTokenizer);
        IOException half = assertThrows(IOException.class,
                () -> new ModelFetcher(1 << 20, 1 << 20).fetch(url("/half.zip"), sha256(noTokenizer), dir.resolve("b")));
        assertTrue(half.getMessage().contains("holds no tokenizer.json"), half.getMessage());

        byte[] escape = zip(Map.of("../evil.txt", "x", "model.onnx", "x", "tokenizer.json", "{}"));
        files.put("/escape.zip", escape);
        IOException slip = assertThrows(IOException.class,
                () -> new ModelFetcher(1 << 20, 1 << 20).fetch(url("/escape.zip"), sha256(escape), dir.resolve("c")));
        assertTrue(slip.getMessage().contains("escapes the target directory"), slip.getMessage());
        assertFalse(Files.exists(dir.resolve("evil.txt")));

        IOException missing = assertThrows(IOException.class,
                () -> new ModelFetcher(1 << 20, 1 << 20).fetch(url("/gone.zip"), "a".repeat(64), dir.resolve("d")));
        assertTrue(missing.getMessage().contains("answered HTTP 404"), missing.getMessage());

        byte[] big = zip(Map.of("model.onnx", "y".repeat(4096), "tokenizer.json", "{}"));
        files.put("/big.zip", big);
        IOException tooBig = assertThrows(IOException.class,
                () -> new ModelFetcher(100, 1 << 20).fetch(url("/big.zip"), sha256(big), dir.resolve("e")));
        assertTrue(tooBig.getMessage().contains("larger than 100 bytes"), tooBig.getMessage());

        StringWriter err = new StringWriter();
        var cli = RagSearchCli.commandLine();
        cli.setErr(new PrintWriter(err));
        assertEquals(1, cli.execute("fetch", "--url", "ftp://x/y.zip", "--sha256", "a".repeat(64), "--to", dir.resolve("f").toString()));
        assertTrue(err.toString().contains("only http and https"), err.toString());
    }

    @Test
    void refusesDirectoriesItDidNotMakeAndCapsWhatItUnpacks(@TempDir Path dir) throws Exception {
        byte[] zip = zip(Map.of("model.onnx", "onnx-bytes", "tokenizer.json", "{}"));
        files.put("/ce.zip", zip);
        Path userDir = Files.createDirectories(dir.resolve("userdir"));
        Files.writeString(userDir.resolve("thesis.tex"), "years of work");
        IOException foreign = assertThrows(IOException.class,
                () -> new ModelFetcher(1 << 20, 1 << 20).fetch(url("/ce.zip"), sha256(zip), userDir));
        assertTrue(foreign.getMessage().contains("not empty and was not made by fetch"), foreign.getMessage());
        assertEquals("years of work", Files.readString(userDir.resolve("thesis.tex")), "the user's files are untouched");
        for (Path refused : new Path[] {Path.of("."), Path.of("/"), Path.of("").toAbsolutePath().getParent()}) {
            IOException e = assertThrows(IOException.class,
                    () -> new ModelFetcher(1 << 20, 1 << 20).fetch(url("/ce.zip"), sha256(zip), refused));
            assertTrue(e.getMessage().contains("working directory, one of its parents or a root"), e.getMessage());
        }

        // A directory fetch made is replaced by a later fetch of another model.
        Path own = dir.resolve("own");
        new ModelFetcher(1 << 20, 1 << 20).fetch(url("/ce.zip"), sha256(zip), own);
        byte[] other = zip(Map.of("model.onnx", "other-bytes", "tokenizer.json", "{}"));
        files.put("/other.zip", other);
        assertEquals(ModelFetcher.Outcome.FETCHED, new ModelFetcher(1 << 20, 1 << 20).fetch(url("/other.zip"), sha256(other), own));
        assertEquals("other-bytes", Files.readString(own.resolve("model.onnx")));

        // A small archive that unpacks past the cap (a zip bomb) is refused and leaves nothing.
        byte[] bomb = zip(Map.of("model.onnx", "0".repeat(200_000), "tokenizer.json", "{}"));
        files.put("/bomb.zip", bomb);
        IOException tooMuch = assertThrows(IOException.class,
                () -> new ModelFetcher(1 << 20, 100_000).fetch(url("/bomb.zip"), sha256(bomb), dir.resolve("bomb")));
        assertTrue(tooMuch.getMessage().contains("unpacks to more than the limit"), tooMuch.getMessage());
        assertFalse(Files.exists(dir.resolve("bomb")));

        // Archives a killed fetch left behind are removed by the next run.
        Path stale = Files.writeString(dir.resolve(".fresh.download-123.zip"), "partial");
        new ModelFetcher(1 << 20, 1 << 20).fetch(url("/ce.zip"), sha256(zip), dir.resolve("fresh"));
        assertFalse(Files.exists(stale));
        try (var left = Files.list(dir)) {
            assertTrue(left.noneMatch(p -> p.getFileName().toString().contains(".download-")), "no download left");
        }
    }

    /** Issue 21, medium 7: a server that stops sending ends the fetch after the read timeout, leaving nothing behind. */
    @Test
    void aServerThatStopsSendingEndsTheFetch(@TempDir Path dir) throws Exception {
        for (String path : java.util.List.of("/stall.zip", "/silent.zip")) {
            long t0 = System.nanoTime();
            IOException stalled = assertThrows(IOException.class, () -> new ModelFetcher(1 << 30, 1 << 30, java.time.Duration.ofSeconds(2), ModelFetcher.DEADLINE)
                    .fetch(url(path), "a".repeat(64), dir.resolve("m")));
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertTrue(stalled.getMessage().contains("no data from") || stalled.getMessage().contains("no answer within 2 s"),
                    path + ": " + stalled.getMessage());
            assertTrue(seconds < 20, path + " took " + seconds + " s");
            try (var left = Files.list(dir)) {
                assertEquals(java.util.List.of(), left.toList(), "no partial download left");
            }
        }
    }

    /** Issue 32: a server that sends a byte every so often, never silent for the read timeout, is ended by the deadline. */
    @Test
    void aTricklingServerIsEndedByTheDeadline(@TempDir Path dir) throws Exception {
        java.util.concurrent.CompletableFuture<IOException> fetch = java.util.concurrent.CompletableFuture.supplyAsync(() ->
                assertThrows(IOException.class, () -> new ModelFetcher(1 << 30, 1 << 30, java.time.Duration.ofSeconds(2),
                        java.time.Duration.ofSeconds(3)).fetch(url("/trickle.zip"), "a".repeat(64), dir.resolve("m"))));
        IOException ended;
        try {
            ended = fetch.get(60, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("a fetch with a 3 s deadline was still going after 60 s of trickle", e);
        }
        assertTrue(ended.getMessage().startsWith("fetching http://127.0.0.1:") && ended.getMessage().contains(
                "/trickle.zip did not finish within 3 s (") && ended.getMessage().contains(" bytes received): the server sends "
                + "too slowly; retry, or give more time with --deadline-seconds"), ended.getMessage());
        try (var left = Files.list(dir)) {
            assertEquals(java.util.List.of(), left.toList(), "no partial download left");
        }
    }

    /** Issue 21, medium 7: redirects are followed one checked hop at a time, and user:password never shows. */
    @Test
    void redirectsAreCheckedAndCredentialsNeverShown(@TempDir Path dir) throws Exception {
        byte[] good = zip(Map.of("model.onnx", "x", "tokenizer.json", "{}"));
        files.put("/good.zip", good);
        assertEquals(ModelFetcher.Outcome.FETCHED, new ModelFetcher(1 << 20, 1 << 20).fetch(url("/redirect/ok"), sha256(good), dir.resolve("a")));
        IOException loop = assertThrows(IOException.class,
                () -> new ModelFetcher(1 << 20, 1 << 20).fetch(url("/redirect/loop"), sha256(good), dir.resolve("b")));
        assertTrue(loop.getMessage().contains("more than 5 redirects"), loop.getMessage());
        IOException ftp = assertThrows(IOException.class,
                () -> new ModelFetcher(1 << 20, 1 << 20).fetch(url("/redirect/ftp"), sha256(good), dir.resolve("c")));
        assertTrue(ftp.getMessage().contains("only http(s) is fetched"), ftp.getMessage());
        IOException userinfo = assertThrows(IOException.class,
                () -> new ModelFetcher(1 << 20, 1 << 20).fetch(url("/redirect/userinfo"), sha256(good), dir.resolve("d")));
        assertTrue(userinfo.getMessage().contains("user information; refused") && !userinfo.getMessage().contains("secret"),
                userinfo.getMessage());
        IOException down = assertThrows(IOException.class,
                () -> ModelFetcher.redirect(URI.create("https://models.example/m.zip"), "http://models.example/m.zip"));
        assertTrue(down.getMessage().contains("from https down to http"), down.getMessage());

        URI withPassword = URI.create("http://fetcher:hunter2@127.0.0.1:" + server.getAddress().getPort() + "/gone.zip");
        IOException missing = assertThrows(IOException.class,
                () -> new ModelFetcher(1 << 20, 1 << 20).fetch(withPassword, sha256(good), dir.resolve("e")));
        assertTrue(missing.getMessage().contains("http://***@127.0.0.1:") && !missing.getMessage().contains("hunter2"), missing.getMessage());
        StringWriter err = new StringWriter();
        var cli = RagSearchCli.commandLine();
        cli.setErr(new PrintWriter(err));
        assertEquals(1, cli.execute("fetch", "--url", withPassword.toString(), "--sha256", sha256(good), "--to", dir.resolve("f").toString()));
        assertFalse(err.toString().contains("hunter2"), err.toString());
        assertTrue(err.toString().contains("***@"), err.toString());
    }

    private URI url(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    private static byte[] zip(Map<String, String> entries) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            for (var e : new java.util.TreeMap<>(entries).entrySet()) {
                zip.putNextEntry(new ZipEntry(e.getKey()));
                zip.write(e.getValue().getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        }
        return bytes.toByteArray();
    }

    private static String sha256(byte[] data) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    }
}
