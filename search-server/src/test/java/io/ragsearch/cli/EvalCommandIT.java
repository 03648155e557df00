package io.ragsearch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.mcp.TestServers;
import io.ragsearch.server.SearchServerApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/** {@code ragsearch eval} as a person and CI call it: in process, and through MCP against a real server. */
class EvalCommandIT {

    private static final Path ENGLISH = Path.of(System.getProperty("user.dir")).resolve("../eval/handbook-en.yaml").normalize();
    private static SearchServerApp server;

    @BeforeAll
    static void start() throws Exception {
        // The machine's environment, as the in-process eval below sees it: the same model on both sides.
        server = TestServers.startSample(TestServers.server("127.0.0.1", 2, 16, 8), System.getenv());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void throughMcpTheFiguresEqualTheInProcessOnes() throws Exception {
        CliRun.Result mcp = run("eval", "--json", "--url", "http://127.0.0.1:" + server.mcpPort() + "/mcp", ENGLISH.toString());
        assertEquals(0, mcp.exitCode(), mcp.err());
        CliRun.Result local = run("eval", "--json", "--project", "handbook-en=" + sample("en"), ENGLISH.toString());
        assertEquals(0, local.exitCode(), local.err());
        Map<?, ?> a = (Map<?, ?>) ((List<?>) JsonMapper.builder().build().readValue(mcp.out(), Map.class).get("runs")).get(0);
        Map<?, ?> b = (Map<?, ?>) ((List<?>) JsonMapper.builder().build().readValue(local.out(), Map.class).get("runs")).get(0);
        assertEquals(b.get("answerable"), a.get("answerable"));
        assertEquals(b.get("unanswerable"), a.get("unanswerable"));
        assertEquals(b.get("kinds"), a.get("kinds"));
    }

    @Test
    void aFloorNotMetExitsThreeAndSaysWhich() {
        CliRun.Result r = run("eval", "--project", "handbook-en=" + sample("en"), "--min-hit10", "0.5", "--min", "paraphrase.mrr=0.999",
                "--baseline", ENGLISH.toString());
        assertEquals(EvalCommand.FLOOR_NOT_MET, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("floor handbook-en hit10 >= 0.500: met"), r.out());
        assertTrue(r.out().contains("floor handbook-en paraphrase.mrr >= 0.999: NOT MET"), r.out());
        assertTrue(r.out().contains("bm25 baseline"), r.out());
        assertTrue(r.out().contains("paraphrase"), r.out());
    }

    @Test
    void theMidpointSweepMovesOnlyTheModelsSideOfTheGate() {
        CliRun.Result r = run("eval", "--project", "handbook-en=" + sample("en"), "--sweep-midpoint", ENGLISH.toString());
        assertEquals(0, r.exitCode(), r.err());
        List<double[]> rows = r.out().lines().map(String::strip).filter(l -> l.matches("0\\.\\d{3}( +\\d\\.\\d{3}){4}"))
                .map(l -> java.util.Arrays.stream(l.split(" +")).mapToDouble(Double::parseDouble).toArray()).toList();
        assertEquals(21, rows.size(), r.out());
        assertEquals(0.780, rows.get(0)[0], 1e-9);
        assertEquals(0.880, rows.get(20)[0], 1e-9);
        for (int i = 1; i < rows.size(); i++) {
            assertTrue(rows.get(i)[1] <= rows.get(i - 1)[1], "a higher midpoint never keeps more: " + r.out());
            assertTrue(rows.get(i)[4] >= rows.get(i - 1)[4], "a higher midpoint never refuses less: " + r.out());
            assertTrue(rows.get(i)[3] <= rows.get(i - 1)[3] + 1e-9, "MRR only falls as questions are refused: " + r.out());
        }
        assertTrue(rows.get(20)[1] < rows.get(0)[1] && rows.get(20)[4] > rows.get(0)[4], "the midpoint decides: " + r.out());
        // The run with the defaults (printed after the curve) is the curve's row at the English midpoint.
        double[] english = rows.stream().filter(row -> Math.abs(row[0] - io.ragsearch.search.CosineEvidence.E5_ENGLISH.midpoint()) < 1e-9)
                .findFirst().orElseThrow();
        String answerable = r.out().lines().filter(l -> l.startsWith("answerable")).findFirst().orElseThrow();
        String[] cells = answerable.trim().split(" +");
        assertEquals(english[1], Double.parseDouble(cells[cells.length - 2]), 1e-9, answerable);

        CliRun.Result both = run("eval", "--project", "handbook-en=" + sample("en"), "--sweep", "--sweep-midpoint", ENGLISH.toString());
        assertEquals(1, both.exitCode());
        assertTrue(both.err().contains("give one of the two"), both.err());
    }

    @Test
    void theDumpHoldsOneLinePerQuestionWithTheExpectedArticleMarkedWhereALegFoundIt(@TempDir Path dir) throws Exception {
        Path dump = dir.resolve("dev.jsonl");
        CliRun.Result r = run("eval", "--project", "handbook-en=" + sample("en"), "--dump", dump.toString(), ENGLISH.toString());
        assertEquals(0, r.exitCode(), r.err());
        List<String> lines = Files.readAllLines(dump);
        assertEquals(43, lines.size(), "one line per question of handbook-en.yaml (33 answerable, 10 unanswerable)");
        int answerableFound = 0;
        int unanswerableMarked = 0;
        for (String line : lines) {
            Map<?, ?> q = JsonMapper.builder().build().readValue(line, Map.class);
            assertEquals("handbook-en", q.get("project"));
            assertFalse(((List<?>) q.get("vec")).isEmpty(), "the vector leg ran: " + q.get("id"));
            long hits = ((Map<?, ?>) q.get("candidates")).values().stream().filter(c -> ((Number) ((List<?>) c).get(2)).intValue() == 1).count();
            if (Boolean.TRUE.equals(q.get("refused"))) {
                unanswerableMarked += hits > 0 ? 1 : 0;
            } else {
                answerableFound += hits > 0 ? 1 : 0;
            }
        }
        assertEquals(0, unanswerableMarked, "an unanswerable question has no expected article");
        // The eval above ranks every answerable question within the top 5, so some leg found each one.
        assertEquals(33, answerableFound);
        CliRun.Result remote = run("eval", "--url", "http://127.0.0.1:1/mcp", "--dump", dump.toString(), ENGLISH.toString());
        assertEquals(1, remote.exitCode());
        assertTrue(remote.err().contains("does not combine") && remote.err().contains("--dump"), remote.err());
    }

    @Test
    void badInputIsAClearErrorWithoutAStackTrace(@TempDir Path dir) throws Exception {
        CliRun.Result unreachable = run("eval", "--url", "http://127.0.0.1:1/mcp", ENGLISH.toString());
        assertEquals(1, unreachable.exitCode());
        assertTrue(unreachable.err().contains("cannot reach the MCP server at http://127.0.0.1:1/mcp"), unreachable.err());

        Path other = dir.resolve("other.yaml");
        Files.writeString(other, "project: nosuch\nquestions:\n  - {id: a, query: leave, refused: true}\n");
        CliRun.Result unknown = run("eval", "--url", "http://127.0.0.1:" + server.mcpPort() + "/mcp", other.toString());
        assertEquals(1, unknown.exitCode());
        assertTrue(unknown.err().contains("unknown project 'nosuch'"), unknown.err());

        CliRun.Result mixed = run("eval", "--url", "http://127.0.0.1:1/mcp", "--baseline", ENGLISH.toString());
        assertEquals(1, mixed.exitCode());
        assertTrue(mixed.err().contains("does not combine"), mixed.err());

        Path broken = dir.resolve("broken.yaml");
        Files.writeString(broken, "questions:\n  - id: a\n    query: x\n");
        CliRun.Result bad = run("eval", "--project", "handbook-en=" + sample("en"), broken.toString());
        assertEquals(1, bad.exitCode());
        assertTrue(bad.err().contains("expects no article and is not marked 'refused: true'"), bad.err());
        for (CliRun.Result r : List.of(unreachable, unknown, mixed, bad)) {
            assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), "[" + r.err() + "]");
        }
    }

    private static String sample(String sub) {
        return io.ragsearch.search.TestProjects.sampleDirectory(sub).toString();
    }

    private static CliRun.Result run(String... args) {
        return CliRun.inProcess(args);
    }
}
