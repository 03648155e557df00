package io.ragsearch.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ragsearch.cli.ServerJar;
import io.ragsearch.config.ServerEnvironment;
import io.ragsearch.server.SettingsResolver;
import io.ragsearch.corpus.CorpusLoader;
import io.ragsearch.index.IndexBuilder;
import io.ragsearch.search.TestProjects;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A first start whose embedding takes a while, as a pod lives it (issue 28): the real server
 * over 440 generated Korean-looking articles with the multilingual model, killed with SIGKILL
 * twice during its embedding. While it embeds, the probes a pod has stay healthy (startup 200,
 * readiness 503 with the progress); every restart reads the chunks the killed one kept and
 * embeds only the rest; the last one becomes ready with the vectors a clean run computes.
 */
class FirstStartResumesIT {

    // 440 articles: each killed run must leave at least two chunks (of 64) for the next, and the
    // suite pays for every article three times on a loaded 2-core machine (597 s at 640 under load 30).
    private static final int DOCUMENTS = 22;
    private static final int ARTICLES_PER_DOCUMENT = 20;
    private static final int ARTICLES = DOCUMENTS * ARTICLES_PER_DOCUMENT;
    private static final String PROJECT = "rules";
    private static final Pattern RESUMED = Pattern.compile(
            "project " + PROJECT + ": (\\d+) of (\\d+) article vectors from the cache \\((\\d+) part files\\), embedding (\\d+)");
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    @Test
    void aFirstStartKilledTwiceResumesEachTimeAndEndsWithACleanRunsVectors() throws Exception {
        Path corpus = writeCorpus(dir.resolve("corpus"));
        Path cache = dir.resolve("cache");

        // Run 1: from nothing; killed once two chunks are reported.
        Server first = Server.start(this, corpus, cache, dir.resolve("run1.log"));
        int reported1;
        try {
            reported1 = first.embeddingUntil(2 * ChunkedEmbedding.CHUNK);
        } finally {
            first.kill();
        }
        int kept1 = entriesInParts(cache);
        assertTrue(kept1 >= reported1 && kept1 < ARTICLES, "reported " + reported1 + ", kept " + kept1 + " of " + ARTICLES);

        // Run 2: resumes from run 1's chunks; killed two chunks later.
        Server second = Server.start(this, corpus, cache, dir.resolve("run2.log"));
        int reported2;
        try {
            reported2 = second.embeddingUntil(kept1 + 2 * ChunkedEmbedding.CHUNK);
            assertEquals(List.of(kept1, ARTICLES - kept1), second.resumed(), "run 2 reads every vector run 1 kept, embeds only the rest");
        } finally {
            second.kill();
        }
        int kept2 = entriesInParts(cache);
        assertTrue(kept2 >= reported2 && kept2 > kept1, "run 2 kept " + kept2 + " (run 1: " + kept1 + ")");

        // Run 3: resumes again and becomes ready.
        Server third = Server.start(this, corpus, cache, dir.resolve("run3.log"));
        try {
            third.awaitReady(Duration.ofMinutes(20));
            assertEquals(List.of(kept2, ARTICLES - kept2), third.resumed(), "run 3 reads every vector run 2 kept, embeds only the rest");
            JsonNode info = third.json("/info");
            assertEquals("hybrid", info.path("projects").get(0).path("retrieval").asText(), info.toString());
            assertEquals(ARTICLES, info.path("embedding").path("articlesEmbedded").asInt(), info.toString());
            assertEquals("done", info.path("embedding").path("state").asText(), info.toString());
        } finally {
            third.kill();
        }
        assertEquals(0, entriesInParts(cache), "the parts are merged into the project's file");
        assertEqualToACleanRun(corpus, cache);
    }

    /**
     * The merged file holds one vector per article; every fourth (a sample across the chunks of all
     * three runs) is the one a clean in-process run computes for it.
     */
    private static void assertEqualToACleanRun(Path corpus, Path cache) throws IOException {
        EmbeddingModel model = SettingsResolver.defaultEmbedding(ServerEnvironment.read(System.getenv()));
        assertEquals(ModelFiles.BUILTIN_E5, model.builtin(), "the server's default model, which the server ran with");
        ModelFiles files = model.files();
        List<String> texts = IndexBuilder.embeddingTexts(new CorpusLoader(false).load(PROJECT, corpus).corpus());
        try (TextEmbedder clean = TextEmbedder.load(TestProjects.REGISTRY, files, new SessionSettings(1, SessionSettings.Arena.SHRINK),
                model.settings())) {
            Path file = new VectorCache(cache).fileFor(clean.digest(), PROJECT);
            VectorFile.Read read = VectorFile.read(file, clean.dimension(), true);
            assertTrue(read instanceof VectorFile.Entries, file + " (the server's digest is this embedder's): " + read);
            Map<VectorCache.Hash, float[]> stored = ((VectorFile.Entries) read).vectors();
            assertEquals(texts.size(), stored.size());
            List<String> sample = IntStream.range(0, texts.size()).filter(i -> i % 4 == 0).mapToObj(texts::get).toList();
            float[][] fresh = clean.embedPassages(sample);
            for (int i = 0; i < sample.size(); i++) {
                float cosine = Vectors.dot(fresh[i], stored.get(VectorCache.Hash.of(sample.get(i))));
                // Batches differ between the runs (other neighbours, other padding): the same vector up to rounding.
                assertTrue(cosine > 0.9999f, "article " + 4 * i + ": cosine " + cosine + " with a clean run's vector");
            }
        }
    }

    /** Entries in the part files of the cache: the progress a killed process left. */
    private static int entriesInParts(Path cache) throws IOException {
        int n = 0;
        try (Stream<Path> files = Files.walk(cache)) {
            for (Path part : files.filter(p -> p.getParent().getFileName().toString().endsWith(".parts")
                    && p.getFileName().toString().endsWith(".vec")).toList()) {
                if (VectorFile.read(part, 384, true) instanceof VectorFile.Entries e) {
                    n += e.vectors().size();
                }
            }
        } catch (java.nio.file.NoSuchFileException e) {
            return 0;
        }
        return n;
    }

    /** Markdown rules in the statutes' shape: 제N조 (제목) headings over Korean sentences, deterministic. */
    static Path writeCorpus(Path into) throws IOException {
        String[] nouns = {"근로자", "사용자", "연차휴가", "임금", "근로계약", "해고", "회사", "취업규칙", "직원", "승인", "신청서", "기간",
                "수당", "근무시간", "출장", "숙박비", "교육", "안전", "보건", "징계", "위원회", "복무", "퇴직금", "휴직", "보고", "문서"};
        String[] particles = {"은", "는", "을", "를", "에", "의", "로", "와", "에게", "에서"};
        String[] verbs = {"지급한다", "정한다", "신청하여야 한다", "승인할 수 있다", "보고하여야 한다", "제한한다", "따른다", "유지한다"};
        Random random = new Random(28);
        Files.createDirectories(into);
        for (int d = 1; d <= DOCUMENTS; d++) {
            StringBuilder doc = new StringBuilder("# 사내 규정 " + d + "\n\n");
            for (int a = 1; a <= ARTICLES_PER_DOCUMENT; a++) {
                doc.append("##### 제").append(a).append("조 (").append(nouns[random.nextInt(nouns.length)]).append(")\n\n");
                for (int sentence = 0; sentence < 5; sentence++) {
                    for (int w = 0; w < 6; w++) {
                        doc.append(nouns[random.nextInt(nouns.length)]).append(particles[random.nextInt(particles.length)]).append(' ');
                    }
                    doc.append(verbs[random.nextInt(verbs.length)]).append(". ");
                }
                doc.append("\n\n");
            }
            Files.writeString(into.resolve(String.format("rules-%02d.md", d)), doc.toString());
        }
        return into;
    }

    /** One server process on ports chosen here (its "listening" line comes only once it is ready). */
    private record Server(FirstStartResumesIT test, Process process, int admin, Path log) {

        static Server start(FirstStartResumesIT test, Path corpus, Path cache, Path log) throws IOException {
            int mcp = freePort();
            int admin = freePort();
            List<String> cmd = ServerJar.command();
            cmd.addAll(List.of("serve", "--project", PROJECT + "=" + corpus, "--mcp-port", Integer.toString(mcp),
                    "--admin-port", Integer.toString(admin), "--bind", "127.0.0.1"));
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
            pb.environment().put("RAGSEARCH_VECTOR_CACHE", cache.toString());
            return new Server(test, pb.start(), admin, log);
        }

        /**
         * Waits until the server is started and reports at least {@code articles} embedded, checking
         * on every poll what a pod's probes would see: startup 200, liveness 200, readiness 503 with the progress.
         *
         * @return the articles reported embedded at the last poll
         */
        int embeddingUntil(int articles) throws Exception {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(15);
            int polls = 0;
            while (System.nanoTime() < deadline) {
                alive();
                HttpResponse<String> startup = get("/startupz");
                if (startup != null && startup.statusCode() == 200) {
                    assertEquals(200, get("/livez").statusCode());
                    HttpResponse<String> ready = get("/readyz");
                    assertEquals(503, ready.statusCode(), "ready before its vectors: " + ready.body());
                    JsonNode body = JSON.readTree(ready.body());
                    JsonNode progress = body.path("embedding");
                    assertEquals(ARTICLES, progress.path("articlesTotal").asInt(), ready.body());
                    assertTrue(body.path("reason").asText().contains(" of " + ARTICLES + " articles embedded"), ready.body());
                    int embedded = progress.path("articlesEmbedded").asInt();
                    polls++;
                    if (embedded >= articles) {
                        assertTrue(embedded < ARTICLES, "the embedding ended before the test could stop it: " + ready.body());
                        assertTrue(polls > 1 || embedded > 0, ready.body());
                        return embedded;
                    }
                }
                Thread.sleep(200);
            }
            fail("not " + articles + " articles embedded in 15 min:\n" + tail());
            return -1;
        }

        void awaitReady(Duration within) throws Exception {
            long deadline = System.nanoTime() + within.toNanos();
            while (System.nanoTime() < deadline) {
                alive();
                HttpResponse<String> ready = get("/readyz");
                if (ready != null && ready.statusCode() == 200) {
                    return;
                }
                Thread.sleep(500);
            }
            fail("not ready within " + within + ":\n" + tail());
        }

        /** The resumed pass's line: [vectors read from the cache, vectors to embed]. */
        List<Integer> resumed() throws IOException {
            Matcher m = RESUMED.matcher(Files.readString(log));
            assertTrue(m.find(), "no line saying what the pass read from the cache:\n" + tail());
            return List.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(4)));
        }

        JsonNode json(String path) throws Exception {
            return JSON.readTree(get(path).body());
        }

        /** SIGKILL, as the kubelet's last resort and the OOM killer end a container: no shutdown hook runs. */
        void kill() throws InterruptedException {
            process.destroyForcibly();
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "still running 60 s after SIGKILL");
        }

        private void alive() throws IOException {
            if (!process.isAlive()) {
                fail("the server exited (" + process.exitValue() + "):\n" + tail());
            }
        }

        private HttpResponse<String> get(String path) throws InterruptedException {
            try {
                return test.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + admin + path))
                        .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
            } catch (IOException e) {
                return null; // not listening yet
            }
        }

        private String tail() throws IOException {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        }

        private static int freePort() throws IOException {
            try (ServerSocket s = new ServerSocket(0)) {
                return s.getLocalPort();
            }
        }
    }
}
