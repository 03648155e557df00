package io.ragsearch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.mcp.TestServers;
import io.ragsearch.search.TestProjects;
import io.ragsearch.server.SearchServerApp;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code ragsearch verify} against real servers in this JVM through a real MCP client over HTTP:
 * the sample server as it ships, one with a gate threshold of 0.99, one whose English project
 * lost a document. Plain *Test: this module runs Failsafe only for the image profile.
 */
class VerifyCommandIT {

    private static final Path EXAMPLE = Path.of(System.getProperty("user.dir")).resolve("../eval/verify-handbook.yaml").normalize();

    @TempDir
    static Path dir;
    private static SearchServerApp sample;
    private static SearchServerApp strictGate;
    private static SearchServerApp lostDocument;

    @BeforeAll
    static void start() throws Exception {
        sample = TestServers.startSample(TestServers.server("127.0.0.1", 2, 32, null));
        strictGate = start(ServerSettings.Project.ofDirectory("handbook-en", TestProjects.sampleDirectory("en").toString())
                .withDescription("gate 0.99").withThreshold(0.99));
        Path twoDocuments = Files.createDirectories(dir.resolve("en-without-expenses"));
        for (String f : List.of("employee-handbook.md", "it-security.md")) {
            Files.copy(TestProjects.sampleDirectory("en").resolve(f), twoDocuments.resolve(f));
        }
        lostDocument = start(TestProjects.config("handbook-en", twoDocuments, null));
    }

    private static SearchServerApp start(ServerSettings.Project english) throws Exception {
        return SearchServerApp.start(ServerSettings.EMPTY.withServer(TestServers.server("127.0.0.1", 2, 32, null)).withProjects(List.of(english, TestProjects.config("handbook-ko", TestProjects.sampleDirectory("ko"), null))), Map.of());
    }

    @AfterAll
    static void stop() {
        for (SearchServerApp app : new SearchServerApp[] {sample, strictGate, lostDocument}) {
            if (app != null) {
                app.close();
            }
        }
    }

    @Test
    void everyKindPassesOnTheServerItWasWrittenFor() throws Exception {
        Path checks = write("pass.yaml", """
                project: handbook-en
                checks:
                  - {id: leave, kind: search, query: "How many days of paid annual leave do I get?",
                     expect: [{document: employee-handbook, article: Article 10}], within: 1}
                  - {id: off-topic, kind: search, query: "Is there a dress code for the office?", refused: true}
                  - {id: projects, kind: list_projects, names: [handbook-ko, handbook-en], count: 2}
                  - {id: documents, kind: list_documents, project: handbook-ko, count: 3}
                  - {id: overtime, kind: read_article, document: employee-handbook, article: Article 7, title: Overtime,
                     contains: "150 PERCENT of the ordinary"}
                  - {id: no-project, kind: error, tool: list_documents, arguments: {project: nosuch}, message: unknown project}
                  - {id: no-document, kind: error, tool: read_article, arguments: {project: handbook-en, document: nosuch, article: x},
                     message: unknown document}
                  - {id: empty-query, kind: error, tool: search, arguments: {project: handbook-en, query: ""}}
                  - {id: schemas, kind: schemas, tools: [search, list_projects, list_documents, read_article]}
                  - {id: health, kind: health, query: "annual leave sick leave overtime", searches: 6, seconds: 2, budgetMillis: 2000}
                """);
        CliRun.Result r = CliRun.inProcess("verify", "--checks", checks.toString(), "--url", mcp(sample), "--admin-url", admin(sample));
        assertEquals(0, r.exitCode(), r.out() + r.err());
        for (String id : List.of("leave", "off-topic", "projects", "documents", "overtime", "no-project", "no-document", "empty-query",
                "schemas", "health")) {
            assertTrue(r.out().lines().anyMatch(l -> l.startsWith(id + " ") && l.contains(" pass")), id + " in\n" + r.out());
        }
        assertTrue(r.out().contains("10 checks: 10 passed, 0 failed ("), r.out());
        assertTrue(r.out().contains("rank 1"), r.out());
    }

    @Test
    void everyKindFailsWhenTheAnswerIsNotTheExpectedOne() throws Exception {
        Path checks = write("fail.yaml", """
                project: handbook-en
                checks:
                  - {id: wrong-article, kind: search, query: "How many days of paid annual leave do I get?",
                     expect: [{document: it-security, article: Article 1}]}
                  - {id: answered, kind: search, query: "How many days of paid annual leave do I get?", refused: true}
                  - {id: projects, kind: list_projects, names: [handbook-en, handbook-fr]}
                  - {id: documents, kind: list_documents, count: 4}
                  - {id: title, kind: read_article, document: employee-handbook, article: Article 7, title: Overtime pay}
                  - {id: phrase, kind: read_article, document: employee-handbook, article: Article 7, contains: "200 percent"}
                  - {id: not-an-error, kind: error, tool: list_projects}
                  - {id: other-error, kind: error, tool: list_documents, arguments: {project: nosuch}, message: "busy, retry"}
                  - {id: schemas, kind: schemas, tools: [search, delete_article]}
                  - {id: health, kind: health, query: leave, searches: 2, seconds: 1}
                """);
        int closed = closedPort();
        CliRun.Result r = CliRun.inProcess("verify", "--checks", checks.toString(), "--url", mcp(sample), "--admin-url",
                "http://127.0.0.1:" + closed);
        assertEquals(VerifyCommand.CHECK_FAILED, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("10 checks: 0 passed, 10 failed ("), r.out());
        for (String problem : List.of(
                "FAIL wrong-article: ", "expected it-security Article 1 in the top 5, got employee-handbook Article 10 first",
                "FAIL answered: ", "expected no supporting documents, got employee-handbook Article 10 first",
                "missing handbook-fr; unexpected handbook-ko",
                "3 documents, expected 4",
                "the title is \"Overtime\", expected \"Overtime pay\"",
                "the text does not contain \"200 percent\"",
                "the call was answered; expected a tool error",
                "the error does not say \"busy, retry\": unknown project 'nosuch'",
                "tools: missing delete_article; unexpected list_documents, list_projects, read_article",
                "/livez polls did not answer 200")) {
            assertTrue(r.out().contains(problem), problem + " in\n" + r.out());
        }
        assertNoTrace(r);
    }

    @Test
    void sideBySideTheGateThatRefusesShowsAsRankToRefusedAndJsonReadsBack() throws Exception {
        CliRun.Result r = CliRun.inProcess("verify", "--json", "--checks", EXAMPLE.toString(), "--url", mcp(strictGate),
                "--baseline-url", mcp(sample));
        assertEquals(VerifyCommand.CHECK_FAILED, r.exitCode(), r.out() + r.err());
        Map<String, Map<String, Object>> rows = rows(r.out());
        Map<String, Object> sick = rows.get("sick-note");
        assertEquals(false, sick.get("passed"));
        assertEquals("rank 1 → refused", sick.get("difference"));
        assertEquals(Boolean.TRUE, ((Map<?, ?>) sick.get("baseline")).get("met"));
        assertTrue(((String) ((Map<?, ?>) sick.get("candidate")).get("problem")).contains("got no supporting documents"), sick.toString());
        // Whole coverage still passes 0.99: the same answer on both, no difference.
        assertEquals(true, rows.get("annual-leave").get("passed"));
        assertNull(rows.get("annual-leave").get("difference"));
        assertEquals(true, rows.get("tool-schemas").get("passed"));
        assertEquals(true, rows.get("pension-unanswerable").get("passed"));
        Map<?, ?> report = JsonMapper.builder().build().readValue(r.out(), Map.class);
        assertEquals(mcp(sample), report.get("baseline"));
        assertEquals(11, ((Number) report.get("passed")).intValue() + ((Number) report.get("failed")).intValue());
        assertTrue(((Number) report.get("failed")).intValue() >= 1);
    }

    @Test
    void sideBySideALostDocumentFailsItsChecksAndADifferenceShowsWhereBothPass() throws Exception {
        CliRun.Result r = CliRun.inProcess("verify", "--checks", EXAMPLE.toString(), "--url", mcp(lostDocument),
                "--baseline-url", mcp(sample));
        assertEquals(VerifyCommand.CHECK_FAILED, r.exitCode(), r.out() + r.err());
        String documents = line(r.out(), "documents ");
        assertTrue(documents.contains("FAIL") && documents.contains("3 → 2 (−expense-policy)"), documents);
        assertTrue(line(r.out(), "hotel-limit ").contains("FAIL"), r.out());
        // The missing-document error still says "unknown document" (a pass) but lists other documents: a difference.
        String missing = line(r.out(), "missing-document ");
        assertTrue(missing.contains(" pass ") && missing.contains("message \""), missing);
        assertTrue(line(r.out(), "read-overtime ").contains(" pass"), r.out());
        assertTrue(r.out().contains("FAIL documents: missing expense-policy"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("11 checks: \\d+ passed, \\d+ failed, \\d+ differ from the baseline \\(.*")),
                r.out());
    }

    @Test
    void aStoredSchemaFileCatchesAChangedSchema() throws Exception {
        Path stored = dir.resolve("tools.json");
        Path checks = write("schemas.yaml", "checks:\n  - {id: stored, kind: schemas, file: tools.json}\n");
        CliRun.Result save = CliRun.inProcess("verify", "--checks", checks.toString(), "--url", mcp(sample), "--save-schemas",
                stored.toString());
        // The first run compares with whatever was there before: nothing yet is a checks-file error.
        assertEquals(1, save.exitCode(), save.out() + save.err());
        assertTrue(save.err().contains("cannot read schemas file"), save.err());

        Files.writeString(checks, "checks:\n  - {id: wellformed, kind: schemas}\n");
        save = CliRun.inProcess("verify", "--checks", checks.toString(), "--url", mcp(sample), "--save-schemas", stored.toString());
        assertEquals(0, save.exitCode(), save.out() + save.err());
        assertTrue(save.out().contains("wrote " + stored), save.out());

        Files.writeString(checks, "checks:\n  - {id: stored, kind: schemas, file: tools.json}\n");
        CliRun.Result same = CliRun.inProcess("verify", "--checks", checks.toString(), "--url", mcp(lostDocument));
        assertEquals(0, same.exitCode(), same.out() + same.err());

        Files.writeString(stored, Files.readString(stored).replaceFirst("\"maximum\" : 20", "\"maximum\" : 10"));
        CliRun.Result changed = CliRun.inProcess("verify", "--checks", checks.toString(), "--url", mcp(sample));
        assertEquals(VerifyCommand.CHECK_FAILED, changed.exitCode(), changed.out() + changed.err());
        assertTrue(changed.out().contains("differs from tools.json at search.inputSchema.properties.top_k.maximum: 10 → 20"), changed.out());
    }

    @Test
    void anUnreachableCandidateFailsEveryCheckInWords() throws Exception {
        int closed = closedPort();
        CliRun.Result r = CliRun.inProcess("verify", "--checks", EXAMPLE.toString(), "--url", "http://127.0.0.1:" + closed + "/mcp",
                "--baseline-url", mcp(sample));
        assertEquals(VerifyCommand.CHECK_FAILED, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("11 checks: 0 passed, 11 failed"), r.out());
        assertTrue(line(r.out(), "annual-leave ").contains("rank 1 (1.00)             unreachable"), r.out());
        assertTrue(r.out().contains("cannot reach the MCP server at http://127.0.0.1:" + closed
                + "/mcp: nothing answers there (connection refused or closed)"), r.out());
        assertNoTrace(r);
    }

    @Test
    void aServerThatNeverAnswersIsATimeoutPerCheck() throws Exception {
        try (ServerSocket silent = new ServerSocket(0)) {
            List<Socket> held = new ArrayList<>();
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        held.add(silent.accept());
                    }
                } catch (IOException e) {
                    // closed: the test is over
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            Path checks = write("one.yaml", "checks:\n  - {id: projects, kind: list_projects, count: 2}\n");
            long t0 = System.nanoTime();
            CliRun.Result r = CliRun.inProcess("verify", "--checks", checks.toString(), "--timeout", "1", "--url",
                    "http://127.0.0.1:" + silent.getLocalPort() + "/mcp");
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertEquals(VerifyCommand.CHECK_FAILED, r.exitCode(), r.out() + r.err());
            assertTrue(line(r.out(), "projects ").contains("no answer in 1 s"), r.out());
            assertTrue(r.out().contains("no answer in time"), r.out());
            assertTrue(seconds < 15, "took " + seconds + " s");
            assertNoTrace(r);
            for (Socket s : held) {
                s.close();
            }
        }
    }

    @Test
    void aMalformedChecksFileIsAnErrorAndNothingRuns() throws Exception {
        Path checks = write("broken.yaml", """
                checks:
                  - {id: a, kind: list_documents}
                  - {id: a, kind: read_article, document: x}
                """);
        // The URL is unreachable: had anything run, the rows would say so; the file is rejected first.
        CliRun.Result r = CliRun.inProcess("verify", "--checks", checks.toString(), "--url", "http://127.0.0.1:1/mcp");
        assertEquals(1, r.exitCode(), r.out() + r.err());
        assertEquals("", r.out());
        assertTrue(r.err().startsWith("ragsearch: checks file " + checks + ":"), r.err());
        assertTrue(r.err().contains("check 'a' names no project"), r.err());
        assertTrue(r.err().contains("check 'a': the id is used twice"), r.err());
        assertTrue(r.err().contains("needs document and article"), r.err());
        assertNoTrace(r);

        CliRun.Result badUrl = CliRun.inProcess("verify", "--checks", EXAMPLE.toString(), "--url", "127.0.0.1:8080");
        assertEquals(1, badUrl.exitCode());
        assertEquals(1, badUrl.err().strip().lines().count(), badUrl.err());
        assertTrue(badUrl.err().contains("the MCP URL must be an http(s) address"), badUrl.err());
        assertNoTrace(badUrl);
    }

    private static Map<String, Map<String, Object>> rows(String json) {
        Map<?, ?> report = JsonMapper.builder().build().readValue(json, Map.class);
        Map<String, Map<String, Object>> out = new java.util.LinkedHashMap<>();
        for (Object o : (List<?>) report.get("checks")) {
            @SuppressWarnings("unchecked")
            Map<String, Object> row = (Map<String, Object>) o;
            out.put((String) row.get("id"), row);
        }
        return out;
    }

    private static String line(String out, String prefix) {
        return out.lines().filter(l -> l.startsWith(prefix)).findFirst().orElse("(no row " + prefix + ")\n" + out);
    }

    private static void assertNoTrace(CliRun.Result r) {
        String all = r.out() + r.err();
        assertFalse(all.contains("Exception") || all.contains("\tat "), all);
    }

    private static Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    private static String mcp(SearchServerApp app) {
        return "http://127.0.0.1:" + app.mcpPort() + "/mcp";
    }

    private static String admin(SearchServerApp app) {
        return "http://127.0.0.1:" + app.adminPort();
    }

    /** A port nothing listens on (bound once, then released). */
    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
