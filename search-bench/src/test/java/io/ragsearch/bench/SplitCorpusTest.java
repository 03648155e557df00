package io.ragsearch.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.corpus.Article;
import io.ragsearch.corpus.Corpus;
import io.ragsearch.corpus.CorpusLoader;
import io.ragsearch.corpus.Document;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SplitCorpusTest {

    private static final String P1 = "① 사용자는 근로자를 해고하려면 적어도 30일 전에 예고를 하여야 한다.";
    private static final String P2 = "② 제1항의 예고를 하지 아니하였을 때에는 30일분 이상의 통상임금을 지급하여야 한다.";
    private static final String P3 = "③ 해고의 예고는 서면으로 하여야 하며 그 사유를 적어야 한다.";
    private static final String Q1 = "① 연차 유급휴가는 1년간 80퍼센트 이상 출근한 근로자에게 15일을 준다.";
    private static final String Q2 = "② 계속하여 근로한 기간이 1년 미만인 근로자에게는 1개월 개근 시 1일을 준다.";

    private static Corpus source() {
        Document law = new Document("근로기준법", "근로기준법", "0", List.of(
                new Article("제26조", 1, "해고의 예고", P1 + "\n\n" + P2 + "\n\n  1\\.\n\n" + P3, false),
                new Article("제27조", 2, "", "삭제", true),
                new Article("제60조", 3, "연차 유급휴가", Q1 + "\n\n" + Q2, false)));
        return new Corpus("src", List.of(law), "v1");
    }

    @Test
    void paragraphsFirstThenLongerRunsAndNothingTwice() {
        List<SplitCorpus.GeneratedDocument> all = SplitCorpus.documents(source(), 100);
        // 5 paragraphs alone, 3 runs of two (2 + 1), 1 run of three: the short "1\." block and the deleted article give none
        assertEquals(9, all.size());
        assertEquals(9, new HashSet<>(all.stream().map(SplitCorpus.GeneratedDocument::markdown).toList()).size());
        assertTrue(all.get(0).markdown().contains("##### 제26조 (해고의 예고)\n\n" + P1 + "\n"), all.get(0).markdown());
        assertTrue(all.get(5).markdown().contains(P1 + "\n\n" + P2 + "\n"), all.get(5).markdown());
        assertTrue(all.get(8).markdown().contains(P1 + "\n\n" + P2 + "\n\n" + P3 + "\n"), all.get(8).markdown());
        assertEquals(7, SplitCorpus.documents(source(), 7).size());
    }

    @Test
    void theWrittenDocumentsLoadAsOneArticleEach(@TempDir Path dir) throws Exception {
        SplitCorpus.write(SplitCorpus.documents(source(), 6), dir);
        Corpus loaded = new CorpusLoader(false, List.of("*.md")).load("split", dir).corpus();
        assertEquals(6, loaded.documents().size());
        for (Document d : loaded.documents()) {
            assertEquals(1, d.articles().size(), d.id());
        }
        assertEquals("제60조", loaded.document("doc-00004").orElseThrow().articles().get(0).label());
        assertEquals(Q1, loaded.document("doc-00004").orElseThrow().articles().get(0).body().strip());
    }

    @Test
    void refusesToWriteIntoADirectoryThatHoldsOtherFiles(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("other.md"), "# other\n");
        assertThrows(java.io.IOException.class, () -> SplitCorpus.write(SplitCorpus.documents(source(), 2), dir));
        assertEquals(1, Files.list(dir).count());
    }
}
