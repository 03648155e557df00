package io.ragsearch.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QuestionFileTest {

    @Test
    void readsAnswerableAndRefusedQuestionsWithTheFilesDefaultProject() {
        QuestionFile f = QuestionFile.parse("""
                set: sample
                project: rules
                questions:
                  - id: q1
                    kind: keyword
                    query: "  출장 숙박비 상한은?  "
                    expect:
                      - {document: 출장여비규정, article: 제5조}
                      - {document: 출장여비규정, article: "제 6 조"}
                  - id: q2
                    kind: unanswerable
                    project: other
                    query: 주가는?
                    refused: true
                  - id: q3
                    query: no kind given
                    refused: true
                """, "inline");
        assertEquals("sample", f.set());
        assertEquals(3, f.questions().size());
        Question q1 = f.questions().get(0);
        assertEquals("rules", q1.project());
        assertEquals("출장 숙박비 상한은?", q1.query());
        assertEquals(2, q1.rankIn(List.of(new ArticleRef("x", "제1조"), new ArticleRef("출장여비규정", "제6조"))));
        assertEquals(0, q1.rankIn(List.of(new ArticleRef("다른규정", "제5조"))));
        assertTrue(f.questions().get(1).refused());
        assertEquals("other", f.questions().get(1).project());
        assertEquals("unanswerable", f.questions().get(2).kind());
    }

    @Test
    void everyProblemIsNamedAndNothingIsRun() {
        EvalException e = assertThrows(EvalException.class, () -> QuestionFile.parse("""
                questions:
                  - id: a
                    query: x
                  - id: a
                    query: y
                    refused: true
                    expect: [{document: d, article: 제1조}]
                  - query: ""
                    refused: true
                  - id: c
                    query: z
                    expect: [{document: d}]
                """, "bad.yaml"));
        String m = e.getMessage();
        assertTrue(m.contains("question 'a' names no project"), m);
        assertTrue(m.contains("question 'a' expects no article and is not marked 'refused: true'"), m);
        assertTrue(m.contains("the id is used twice"), m);
        assertTrue(m.contains("is both refused and expects articles"), m);
        assertTrue(m.contains("question 3 has no id"), m);
        assertTrue(m.contains("question 3 has no query"), m);
        assertTrue(m.contains("every expect entry needs document and article"), m);
    }

    @Test
    void unknownFieldsDuplicateKeysAndEmptyFilesAreErrors() {
        assertTrue(assertThrows(EvalException.class, () -> QuestionFile.parse(
                "project: p\nquestions:\n  - id: a\n    query: q\n    refused: true\n    expected: []\n", "f"))
                .getMessage().contains("expected"));
        assertTrue(assertThrows(EvalException.class, () -> QuestionFile.parse(
                "project: p\nproject: q\nquestions:\n  - {id: a, query: q, refused: true}\n", "f"))
                .getMessage().contains("project"));
        assertTrue(assertThrows(EvalException.class, () -> QuestionFile.parse("set: s\n", "empty.yaml"))
                .getMessage().contains("has no questions"));
        assertTrue(assertThrows(EvalException.class, () -> QuestionFile.parse("questions: [", "broken.yaml"))
                .getMessage().contains("broken.yaml is not valid"));
    }

    @Test
    void aFileThatIsNotUtf8OrMissingIsAClearError(@TempDir Path dir) throws Exception {
        Path latin = dir.resolve("latin1.yaml");
        Files.write(latin, new byte[] {'s', 'e', 't', ':', ' ', (byte) 0xE9, '\n'});
        assertTrue(assertThrows(EvalException.class, () -> QuestionFile.load(latin)).getMessage().contains("not UTF-8"));
        EvalException missing = assertThrows(EvalException.class, () -> QuestionFile.load(dir.resolve("none.yaml")));
        assertTrue(missing.getMessage().startsWith("cannot read question file"), missing.getMessage());
        assertFalse(missing.getMessage().contains("Exception"), missing.getMessage());
    }
}
