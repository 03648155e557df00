package io.ragsearch.search;

import java.util.Optional;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.metrics.ProcessMemory;
import io.ragsearch.corpus.Article;
import io.ragsearch.corpus.CorpusLoader;
import io.ragsearch.corpus.Document;
import io.ragsearch.index.Language;
import io.ragsearch.contract.settings.ServerSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** 20 real Korean statutes served as one project: loads cleanly, finds the right articles, figures printed. */
class KoreanStatutesTest {

    @Test
    void realStatutesLoadSplitAndAnswer() throws Exception {
        Path dir = SharedCorpus.koStatutes();

        CorpusLoader.LoadedCorpus loaded = new CorpusLoader(false, List.of("*.md")).load("ko-statutes", dir);
        assertTrue(loaded.problems().isEmpty(), loaded.problems().toString());
        assertEquals(20, loaded.corpus().documents().size());
        for (Document d : loaded.corpus().documents()) {
            assertFalse(d.articles().isEmpty(), d.id());
            assertTrue(d.articles().stream().allMatch(a -> a.label().matches("제\\d+조(의\\d+)?")), d.id() + ": only 제N조 labels");
            assertTrue(d.articles().stream().noneMatch(a -> a.body().contains("부칙 <")), d.id() + ": addenda skipped");
        }
        Document labour = loaded.corpus().document("근로기준법__법률(법률)").orElseThrow();
        assertEquals("근로기준법", labour.title());
        Article a43 = labour.article("제43조의2").orElseThrow();
        assertEquals("체불사업주 명단 공개", a43.title());
        assertTrue(labour.article("제35조").orElseThrow().deleted(), "제35조 reads 삭제 <2019.1.15>");

        TestProjects.embedder(); // model load is not index build: AUTO needs its tokenizer, so load it first
        long t0 = System.nanoTime();
        Project project = new ProjectLoader(TestProjects::tokenizer, TestProjects::embedder).load(new ProjectSettings("ko-statutes", "",
                Optional.of(new ProjectSettings.DirectorySource(dir, List.of("*.md"), false)), ProjectSettings.Retrieval.DEFAULTS,
                Optional.empty()));
        double buildMs = (System.nanoTime() - t0) / 1e6;
        assertEquals(Language.KOREAN, project.index().language());
        assertEquals(RetrievalMode.LEXICAL, project.mode());

        ProjectCatalog catalog = new ProjectCatalog();
        catalog.put(project);
        SearchService search = new SearchService(catalog, TestProjects.embedder(), SearchLimits.DEFAULTS);
        for (int i = 0; i < 20; i++) {
            search.search("ko-statutes", "연차 유급휴가 " + i, 5); // warm-up
        }
        int rounds = 50;
        long q0 = System.nanoTime();
        for (int i = 0; i < rounds; i++) {
            search.search("ko-statutes", "연차 유급휴가는 며칠인가요", 5);
        }
        double queryMs = (System.nanoTime() - q0) / 1e6 / rounds;
        SearchResponse leave = search.search("ko-statutes", "연차 유급휴가는 며칠인가요", 5);
        SearchHit top = leave.results().get(0);
        assertEquals("근로기준법__법률(법률) 제60조", top.document() + " " + top.article(), leave.results().toString());

        SearchHit minimumWage = search.search("ko-statutes", "최저임금의 결정 기준", 3).results().get(0);
        assertEquals("최저임금법__법률", minimumWage.document());

        assertFalse(search.search("ko-statutes", "우주선 추진 장치", 5).gate().passed());

        Runtime rt = Runtime.getRuntime();
        System.out.printf(Locale.ROOT, "[ko-statutes] documents=%d articles=%d (live %d) corpus load + index build=%.0f ms "
                        + "search mean of 50=%.1f ms rss=%d MiB heap used=%d MiB%n",
                project.corpus().documents().size(), project.corpus().articleCount(), project.index().size(), buildMs, queryMs,
                ProcessMemory.residentBytes() >> 20, (rt.totalMemory() - rt.freeMemory()) >> 20);
    }
}
