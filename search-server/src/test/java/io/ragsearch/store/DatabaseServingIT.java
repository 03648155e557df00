package io.ragsearch.store;

import static io.ragsearch.store.TestDatabase.cli;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.corpus.CorpusLoader;
import io.ragsearch.mcp.TestServers;
import io.ragsearch.search.TestProjects;
import io.ragsearch.server.SearchServerApp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server with the corpus record in a real PostgreSQL. */
class DatabaseServingIT {

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();

    private SearchServerApp start() throws Exception {
        ServerSettings config = ServerSettings.EMPTY.withServer(TestServers.server("127.0.0.1", 4, 32, null))
                .withDatabase(ServerSettings.Database.at(TestDatabase.url()).withUser(TestDatabase.user()).withPollSeconds(1))
                .withProjects(List.of());
        return SearchServerApp.start(config, Map.of());
    }

    private HttpResponse<String> admin(SearchServerApp app, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.adminPort() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private Path corpus(String extraArticle) throws Exception {
        Path c = Files.createDirectories(dir.resolve("corpus"));
        Files.writeString(c.resolve("handbook.md"), "# Handbook\n### Article 1 (Annual leave)\nEmployees receive fifteen days of paid leave.\n"
                + "### Article 2 (Remote work)\nRemote work is allowed two days a week.\n" + extraArticle);
        return c;
    }

    private void ingest(String project, Path corpus) throws Exception {
        try (Database db = TestDatabase.open()) {
            new Ingester(db).ingest(new CorpusLoader(false).load(project, corpus).corpus(), "db test", corpus.toString(),
                    TestProjects.embedder());
        }
    }

    private static String search(McpSyncClient client, String project, String query) {
        CallToolResult r = client.callTool(new CallToolRequest("search", Map.of("project", project, "query", query, "top_k", 1)));
        String text = ((TextContent) r.content().get(0)).text();
        if (Boolean.TRUE.equals(r.isError())) {
            throw new IllegalStateException(text);
        }
        return text;
    }

    @Test
    void servesStoredProjectsWithoutReembeddingAndPicksUpChangesDuringSearches() throws Exception {
        String project = "live-" + System.nanoTime();
        ingest(project, corpus(""));
        try (SearchServerApp app = start()) {
            await().atMost(Duration.ofSeconds(60)).until(() -> app.catalog().contains(project));
            assertTrue(admin(app, "/metrics").body().contains("ragsearch_embedding_texts_total 1\n"),
                    "only the model's dimension probe was embedded: stored vectors were used");
            McpSyncClient client = TestServers.client(app.mcpPort());
            assertTrue(search(client, project, "paid leave days").contains("Article 1"));

            AtomicBoolean running = new AtomicBoolean(true);
            AtomicInteger ok = new AtomicInteger();
            AtomicInteger failed = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(4);
            List<Future<?>> load = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                load.add(pool.submit(() -> {
                    McpSyncClient c = TestServers.client(app.mcpPort());
                    while (running.get()) {
                        try {
                            search(c, project, "remote work days");
                            ok.incrementAndGet();
                        } catch (RuntimeException e) {
                            failed.incrementAndGet();
                        }
                    }
                    c.closeGracefully();
                    return null;
                }));
            }
            ingest(project, corpus("### Article 3 (Quokka policy)\nQuokkas may visit the office on Fridays.\n"));
            long t0 = System.nanoTime();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                    .until(() -> search(client, project, "quokka visits").contains("Article 3"));
            double visibleMs = (System.nanoTime() - t0) / 1e6;
            // Some searches of every load thread land on the new index too, not only on the old one.
            int beforeSwap = ok.get();
            await().atMost(Duration.ofSeconds(30)).until(() -> ok.get() >= beforeSwap + 8);
            running.set(false);
            for (Future<?> f : load) {
                f.get();
            }
            pool.shutdown();
            client.closeGracefully();
            System.out.printf(Locale.ROOT, "[live-refresh] change visible %.0f ms after ingest committed; searches during refresh ok=%d failed=%d%n",
                    visibleMs, ok.get(), failed.get());
            assertEquals(0, failed.get(), "no search failed while the index was swapped");
            assertTrue(ok.get() > 0);
        }
    }

    @Test
    void ingestAndQueryCommandsWorkAgainstTheDatabase() throws Exception {
        String project = "cli-" + System.nanoTime();
        Path corpus = corpus("");
        String url = TestDatabase.url() + "?user=" + TestDatabase.user();
        try {
            // The commands run with the machine's defaults: the built-in multilingual model the test command installed.
            String first = cli("ingest", "--db", url, "--project", project, corpus.toString());
            assertTrue(first.contains("project " + project + ": 1 added, 0 updated, 0 removed, 0 unchanged documents; 2 articles written; "
                    + "embeddings multilingual-e5-small; corpus version 1"), first);
            String second = cli("ingest", "--db", url, "--project", project, corpus.toString());
            assertTrue(second.contains("1 unchanged documents") && second.contains("(nothing changed)"), second);
            String answer = cli("query", "--db", url, "--in", project, "how many days of paid leave");
            assertTrue(answer.contains("== " + project + " (hybrid): gate passed") && answer.contains("Article 1 (Annual leave)"), answer);
        } finally {
            // The servers this class starts embed queries with MiniLM and would list this project as refused.
            TestDatabase.execute("DELETE FROM projects WHERE name = '" + project + "'");
        }
    }

    @Test
    void anOutageKeepsTheLastGoodIndexServingAndRecoversByItself() throws Exception {
        String project = "outage-" + System.nanoTime();
        ingest(project, corpus(""));
        try (SearchServerApp app = start()) {
            await().atMost(Duration.ofSeconds(60)).until(() -> admin(app, "/readyz").statusCode() == 200
                    && app.catalog().contains(project));
            McpSyncClient client = TestServers.client(app.mcpPort());
            TestDatabase.pgCtl("stop");
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> admin(app, "/info").body().contains("\"connected\":false"));
                String info = admin(app, "/info").body();
                assertTrue(info.contains("\"serving\":\"the last good index\"") && info.contains("unreachableSince"), info);
                assertTrue(admin(app, "/metrics").body().contains("ragsearch_database_reachable 0"));
                assertEquals(200, admin(app, "/readyz").statusCode(), "the last good index answers: the pod stays an endpoint");
                assertEquals(200, admin(app, "/livez").statusCode());
                assertTrue(search(client, project, "paid leave days").contains("Article 1"), "still serving");
            } finally {
                TestDatabase.pgCtl("start");
            }
            long t0 = System.nanoTime();
            await().atMost(Duration.ofSeconds(60)).until(() -> admin(app, "/info").body().contains("\"connected\":true"));
            System.out.printf(Locale.ROOT, "[outage] database seen again %.1f s after it restarted%n", (System.nanoTime() - t0) / 1e9);
            assertTrue(admin(app, "/metrics").body().contains("ragsearch_database_reachable 1"));
            assertEquals(200, admin(app, "/readyz").statusCode());
            client.closeGracefully();
        }
    }

    @Test
    void aDatabaseDownAtStartupMeansNotReadyThenReady() throws Exception {
        String project = "startup-" + System.nanoTime();
        ingest(project, corpus(""));
        TestDatabase.pgCtl("stop");
        SearchServerApp app;
        try {
            app = start();
            assertEquals(200, admin(app, "/livez").statusCode());
            assertEquals(200, admin(app, "/startupz").statusCode(), "the process is up; readiness carries the database");
            HttpResponse<String> ready = admin(app, "/readyz");
            assertEquals(503, ready.statusCode());
            assertTrue(ready.body().contains("no database project loaded yet"), ready.body());
        } finally {
            TestDatabase.pgCtl("start");
        }
        try (app) {
            await().atMost(Duration.ofSeconds(60)).until(() -> admin(app, "/readyz").statusCode() == 200);
            assertTrue(app.catalog().contains(project));
        }
    }

    /**
     * Issue 21, high 4, database mode: one stored row whose label Lucene cannot hold (over 32 KB)
     * used to drop the whole project from every replica that started later; now that row is a load
     * problem and the rest serves.
     */
    @Test
    void aRowTheIndexCannotHoldCostsThatRowNotTheProject() throws Exception {
        String project = "hugelabel-" + System.nanoTime();
        ingest(project, corpus(""));
        TestDatabase.execute("UPDATE articles SET label = '제' || repeat('1', 40000) || '조' WHERE project = '" + project
                + "' AND ordinal = 2");
        try (SearchServerApp app = start()) {
            await().atMost(Duration.ofSeconds(60)).until(() -> app.catalog().contains(project));
            String info = admin(app, "/info").body();
            assertTrue(info.contains("a heading label of 40006 bytes"), info);
            assertTrue(!info.contains("1".repeat(200)), "the problem shows the label's start only");
            McpSyncClient client = TestServers.client(app.mcpPort());
            try {
                assertTrue(search(client, project, "paid annual leave days").contains("Article 1"));
            } finally {
                client.closeGracefully();
            }
        } finally {
            TestDatabase.execute("DELETE FROM projects WHERE name = '" + project + "'");
        }
    }

    @Test
    void embeddingsFromAnotherModelAreRefusedWithAClearReason() throws Exception {
        String project = "othermodel-" + System.nanoTime();
        ingest(project, corpus(""));
        TestDatabase.execute("UPDATE articles SET embedding_digest = 'sha256:0123', embedding_model = 'other-model' WHERE project = '"
                + project + "'");
        try (SearchServerApp app = start()) {
            await().atMost(Duration.ofSeconds(60)).until(() -> admin(app, "/info").body().contains("refused"));
            String reason = admin(app, "/info").body();
            assertTrue(reason.contains("refused") && reason.contains("other-model") && reason.contains("re-run ingest"), reason);
            assertTrue(!app.catalog().contains(project));
        } finally {
            TestDatabase.execute("DELETE FROM projects WHERE name = '" + project + "'");
        }
    }
}
