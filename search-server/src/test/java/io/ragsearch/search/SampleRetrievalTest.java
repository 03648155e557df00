package io.ragsearch.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.index.Language;
import java.io.IOException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Real Lucene, real ONNX Runtime with the built-in MiniLM, over the sample corpus. */
class SampleRetrievalTest {

    private static ProjectCatalog catalog;
    private static SearchService search;

    @BeforeAll
    static void load() throws IOException {
        catalog = new ProjectCatalog();
        catalog.put(TestProjects.load("ko", TestProjects.sampleDirectory("ko"), null));
        catalog.put(TestProjects.load("en", TestProjects.sampleDirectory("en"), null));
        // Cosine runs lower than term coverage for the same support: vector-only projects set their own threshold.
        catalog.put(new ProjectLoader(TestProjects::tokenizer, TestProjects::embedder).load(ProjectSettings.ofDirectory(
                "en-vector", TestProjects.sampleDirectory("en")).withRetrieval(new ProjectSettings.Retrieval(java.util.Optional.empty(),
                RetrievalMode.VECTOR, java.util.OptionalDouble.of(0.4)))));
        catalog.put(TestProjects.load("en-lexical", TestProjects.sampleDirectory("en"), "lexical"));
        search = new SearchService(catalog, TestProjects.embedder(), SearchLimits.DEFAULTS);
    }

    @Test
    void autoModeDropsTheVectorLegForKoreanWithAnEnglishModelAndSaysWhy() {
        Project ko = catalog.get("ko");
        assertEquals(Language.KOREAN, ko.index().language());
        assertEquals(RetrievalMode.LEXICAL, ko.mode());
        assertTrue(ko.modeReason().contains("vector leg off"), ko.modeReason());
        Project en = catalog.get("en");
        assertEquals(Language.ENGLISH, en.index().language());
        assertEquals(RetrievalMode.HYBRID, en.mode());
        assertTrue(en.index().hasVectors());
        assertFalse(ko.index().hasVectors());
    }

    @ParameterizedTest
    @CsvSource({
            "ko, 연차 유급휴가는 며칠인가요, 취업규칙, 제10조",
            "ko, 재택근무 신청 기한, 취업규칙, 제7조의2",
            "ko, 해외출장 숙박비 상한, 출장여비규정, 제5조",
            "ko, 비밀번호 변경 주기, 정보보안규정, 제3조",
            "ko, 직장 내 괴롭힘 신고, 취업규칙, 제16조의2",
            "ko, 제16조의2, 취업규칙, 제16조의2",
            "en, how many days of annual leave do I get, employee-handbook, Article 10",
            "en, can I work from home, employee-handbook, Article 6",
            "en, hotel limit in Seoul, expense-policy, Hotels",
            "en, how long must a password be, it-security, Article 1",
            "en, I lost my laptop who do I tell, it-security, Article 4",
            "en-vector, paid vacation days per year, employee-handbook, Article 10",
            "en-lexical, gifts from suppliers, employee-handbook, Article 16",
    })
    void findsTheExpectedArticleFirst(String project, String query, String document, String article) {
        SearchResponse r = search.search(project, query, 3);
        assertTrue(r.gate().passed(), () -> "gate closed: " + r.gate());
        SearchHit top = r.results().get(0);
        assertEquals(document + " " + article, top.document() + " " + top.article(), () -> "results: " + r.results());
        assertTrue(top.score() >= r.gate().threshold() && top.score() <= 1.0);
    }

    @ParameterizedTest
    @CsvSource({
            "ko, 우주선 추진 장치의 연료",
            "ko, 점심 메뉴 추천",
            "en, quantum spaceship propulsion",
            "en, who won the football world cup",
    })
    void theGateClosesWhenNothingSupportsAnAnswer(String project, String query) {
        SearchResponse r = search.search(project, query, 5);
        assertFalse(r.gate().passed(), () -> "unexpected support: " + r.results());
        assertTrue(r.results().isEmpty());
        assertTrue(r.gate().bestScore() < r.gate().threshold());
    }

    @Test
    void deletedArticlesAreNeverEvidence() {
        SearchResponse ko = search.search("ko", "제8조 삭제", 20);
        assertTrue(ko.results().stream().noneMatch(h -> h.document().equals("취업규칙") && h.article().equals("제8조")),
                ko.results().toString());
        assertTrue(catalog.get("ko").document("취업규칙").article("제8조").orElseThrow().deleted(), "still readable");
        SearchResponse en = search.search("en", "Article 13 deleted", 20);
        assertTrue(en.results().stream().noneMatch(h -> h.document().equals("employee-handbook") && h.article().equals("Article 13")),
                en.results().toString());
    }

    @Test
    void badRequestsAreClearErrors() {
        NotFoundException unknown = assertThrows(NotFoundException.class, () -> search.search("nope", "x", 1));
        assertTrue(unknown.getMessage().contains("en, en-lexical, en-vector, ko"), unknown.getMessage());
        InvalidRequestException empty = assertThrows(InvalidRequestException.class, () -> search.search("ko", "   ", 1));
        assertTrue(empty.getMessage().contains("empty"));
        InvalidRequestException huge = assertThrows(InvalidRequestException.class,
                () -> search.search("ko", "휴가 ".repeat(600), 1));
        assertTrue(huge.getMessage().contains("limit is 1000"), huge.getMessage());
        InvalidRequestException k = assertThrows(InvalidRequestException.class, () -> search.search("ko", "휴가", 0));
        assertTrue(k.getMessage().contains("top_k"));
        NotFoundException doc = assertThrows(NotFoundException.class, () -> catalog.get("ko").document("없는문서"));
        assertTrue(doc.getMessage().contains("정보보안규정, 출장여비규정, 취업규칙"), doc.getMessage());
    }

    @Test
    void longArticlesAreCutInResultsWithAPointerToReadArticle() {
        SearchService tight = new SearchService(catalog, TestProjects.embedder(), new SearchLimits(1000, 5, 20, 50, 32, 100));
        SearchHit hit = tight.search("ko", "연차 유급휴가", 1).results().get(0);
        assertTrue(hit.text().contains("read_article"), hit.text());
    }
}
