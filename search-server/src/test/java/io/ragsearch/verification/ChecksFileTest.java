package io.ragsearch.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.eval.EvalException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChecksFileTest {

    private static final Path EVAL = Path.of(System.getProperty("user.dir")).resolve("../eval").normalize();

    @Test
    void aQuestionFileOfEvalIsAChecksFileOfSearches() {
        ChecksFile f = ChecksFile.load(EVAL.resolve("handbook-en.yaml"));
        assertEquals("handbook-en", f.set());
        assertEquals(43, f.checks().size());
        assertTrue(f.checks().stream().allMatch(c -> c instanceof SearchCheck s && s.within() == ChecksFile.DEFAULT_WITHIN
                && s.project().equals("handbook-en")));
        assertEquals(10, f.checks().stream().filter(c -> ((SearchCheck) c).refused()).count());
    }

    @Test
    void theExampleFileHasTheIncidentsChecks() {
        ChecksFile f = ChecksFile.load(EVAL.resolve("verify-handbook.yaml"));
        assertEquals(List.of("search", "search", "search", "search", "search", "search", "list_documents", "read_article", "error",
                "error", "schemas"), f.checks().stream().map(Check::kind).toList());
    }

    @Test
    void everyKindIsReadWithItsDefaults(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("tools.json"), "[{\"name\": \"search\", \"inputSchema\": {}, \"outputSchema\": {}}]");
        ChecksFile f = ChecksFile.parse("""
                set: all
                project: rules
                within: 3
                questions:
                  - {id: q1, query: leave, expect: [{document: handbook, article: Article 10}]}
                checks:
                  - {id: s1, kind: search, query: "  leave  ", refused: true, within: 1}
                  - {id: s2, kind: search, project: other, query: leave, expect: [{document: d, article: a}]}
                  - {id: p, kind: list_projects, count: 2}
                  - {id: d, kind: list_documents, names: [a, b]}
                  - {id: r, kind: read_article, document: handbook, article: Article 7, contains: 12 hours}
                  - {id: e, kind: error, tool: search, arguments: {project: nosuch, query: x}, message: unknown project}
                  - {id: e2, kind: error, tool: list_projects}
                  - {id: t, kind: schemas, file: tools.json}
                  - {id: h, kind: health, query: leave}
                """, "inline", dir);
        List<Check> c = f.checks();
        assertEquals(new SearchCheck("q1", "rules", "leave", List.of(new io.ragsearch.eval.ArticleRef("handbook", "Article 10")), false, 3),
                c.get(0));
        assertEquals(new SearchCheck("s1", "rules", "leave", List.of(), true, 1), c.get(1));
        assertEquals("other", ((SearchCheck) c.get(2)).project());
        assertEquals(new ListProjectsCheck("p", null, 2), c.get(3));
        assertEquals(new ListDocumentsCheck("d", "rules", List.of("a", "b"), null), c.get(4));
        assertEquals(new ReadArticleCheck("r", "rules", "handbook", "Article 7", null, "12 hours"), c.get(5));
        assertEquals(new ErrorCheck("e", "search", Map.of("project", "nosuch", "query", "x"), "unknown project"), c.get(6));
        assertEquals(Map.of(), ((ErrorCheck) c.get(7)).arguments());
        SchemasCheck schemas = assertInstanceOf(SchemasCheck.class, c.get(8));
        assertEquals("search", schemas.stored().get(0).get("name"));
        assertNull(schemas.tools());
        assertEquals(new HealthCheck("h", "rules", "leave", ChecksFile.DEFAULT_HEALTH_SEARCHES, ChecksFile.DEFAULT_HEALTH_BUDGET_MILLIS,
                ChecksFile.DEFAULT_HEALTH_SECONDS), c.get(9));
    }

    @Test
    void everyProblemIsNamedAndNothingIsRun() {
        VerifyException e = assertThrows(VerifyException.class, () -> ChecksFile.parse("""
                questions:
                  - {id: q1, project: rules, query: leave}
                checks:
                  - {id: q1, kind: list_projects, count: 1}
                  - {id: a, kind: search, query: leave}
                  - {id: b, kind: list_documents, project: rules}
                  - {id: c, kind: read_article, project: rules, document: x, article: y}
                  - {id: d, kind: error, tool: delete_everything}
                  - {id: f, kind: list_projects, count: 1, query: leave}
                  - {id: g, kind: sorting}
                  - {id: h, kind: health, project: rules, query: x, searches: 1000}
                  - {id: i, kind: schemas, file: nowhere.json}
                  - {kind: list_projects, count: 1}
                """, "bad.yaml", Path.of(".")));
        String m = e.getMessage();
        for (String expected : List.of(
                "question 'q1' expects no article and is not marked 'refused: true'",
                "check 'q1': the id is used twice",
                "check 'a' names no project",
                "check 'b' expects nothing: give names",
                "check 'c' expects nothing: give title and/or contains",
                "check 'd': unknown tool 'delete_everything'",
                "check 'f': 'query' does not belong to a list_projects check",
                "check 'g' has an unknown kind 'sorting'; kinds: error, health, list_documents",
                "check 'h': searches must be 1 to 64",
                "check 'i': cannot read schemas file",
                "check 10 has no id")) {
            assertTrue(m.contains(expected), expected + " in:\n" + m);
        }
        assertTrue(m.startsWith("checks file bad.yaml:"), m);
    }

    @Test
    void unknownFieldsDuplicateKeysAndBrokenFilesAreErrors(@TempDir Path dir) throws Exception {
        assertTrue(assertThrows(VerifyException.class, () -> ChecksFile.parse("checks:\n  - {id: a, kind: list_projects, count: 1, colour: red}\n",
                "x", dir)).getMessage().contains("colour"));
        assertTrue(assertThrows(VerifyException.class, () -> ChecksFile.parse("policy: strict\nchecks:\n  - {id: a, kind: list_projects, count: 1}\n",
                "x", dir)).getMessage().contains("policy"));
        assertTrue(assertThrows(VerifyException.class, () -> ChecksFile.parse(
                "checks:\n  - id: a\n    kind: list_projects\n    count: 1\n    count: 2\n", "x", dir)).getMessage().contains("count"));
        assertTrue(assertThrows(VerifyException.class, () -> ChecksFile.parse("set: s\n", "x", dir)).getMessage().contains("has no checks"));
        assertTrue(assertThrows(VerifyException.class, () -> ChecksFile.parse("checks: [", "x", dir)).getMessage().contains("is not valid"));
        Path latin = dir.resolve("latin.yaml");
        Files.write(latin, new byte[] {'s', 'e', 't', ':', ' ', (byte) 0xE9, '\n'});
        assertTrue(assertThrows(EvalException.class, () -> ChecksFile.load(latin)).getMessage().contains("checks file " + latin + " is not UTF-8"));
    }

    @Test
    void jsonDifferencesNameThePlaceAndCompareNumbersByValue() {
        Map<String, Object> a = Map.of("search", Map.of("top_k", Map.of("maximum", 20, "type", "integer")), "list", List.of(1, 2));
        Map<String, Object> b = Map.of("search", Map.of("top_k", Map.of("maximum", 10, "type", "integer")), "list", List.of(1, 2));
        assertEquals("search.top_k.maximum: 20 → 10", JsonDiff.first(a, b, ""));
        assertNull(JsonDiff.first(Map.of("x", 1), Map.of("x", 1.0), ""));
        assertEquals("x: removed", JsonDiff.first(Map.of("x", 1), Map.of(), ""));
        assertEquals("l: 2 → 3 items", JsonDiff.first(Map.of("l", List.of(1, 2)), Map.of("l", List.of(1, 2, 3)), ""));
    }
}
