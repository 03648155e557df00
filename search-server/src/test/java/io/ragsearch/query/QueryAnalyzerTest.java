package io.ragsearch.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.corpus.Article;
import io.ragsearch.corpus.Corpus;
import io.ragsearch.corpus.Document;
import io.ragsearch.index.IndexBuilder;
import io.ragsearch.index.Language;
import io.ragsearch.index.ProjectIndex;
import java.util.List;
import org.apache.lucene.analysis.ko.POS;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Each step of query analysis on its own, on small corpora indexed for real (the statistics are the index's). */
class QueryAnalyzerTest {

    private static ProjectIndex korean;
    private static ProjectIndex english;

    @BeforeAll
    static void build() throws Exception {
        korean = IndexBuilder.build(new Corpus("ko", List.of(
                new Document("labour", "근로기준법", "d1", List.of(
                        new Article("제26조", 0, "해고의 예고", "사용자는 근로자를 해고하려면 적어도 30일 전에 예고를 하여야 한다.", false),
                        new Article("제60조", 1, "연차 유급휴가", "사용자는 근로자에게 15일의 유급휴가를 주어야 한다.", false),
                        new Article("제76조의3", 2, "직장 내 괴롭힘 발생 시 조치", "사용자는 지체 없이 조사를 실시하여야 한다.", false))),
                new Document("wage", "최저임금법", "d2", List.of(
                        new Article("제10조", 0, "최저임금의 고시", "고용노동부장관은 최저임금을 고시하여야 한다.", false)))),
                "v1"), Language.KOREAN, null, null);
        english = IndexBuilder.build(new Corpus("en", List.of(new Document("handbook", "Staff Handbook", "d", List.of(
                new Article("Article 4", 0, "Annual leave", "Employees receive 25 days of annual leave.", false),
                new Article("Article 5", 1, "Sick leave", "Report sickness to your manager.", false)))), "v1"),
                Language.ENGLISH, null, null);
    }

    @AfterAll
    static void close() {
        korean.close();
        english.close();
    }

    private static QueryTerms ko(String q) {
        return korean.queryAnalyzer().analyze(q);
    }

    private static QueryTerms en(String q) {
        return english.queryAnalyzer().analyze(q);
    }

    @Test
    void aKoreanLabelIsOneSlotWhateverItsSpacingAndItsPiecesAreNoTerms() {
        QueryTerms q = ko("제 76 조의 3 조사");
        assertEquals(List.of("제76조의3"), q.labels().stream().map(QueryTerms.Slot::term).toList());
        assertEquals(List.of("조사"), q.terms(), q.toString());
        assertTrue(q.labels().get(0).idf() > 0);
    }

    @Test
    void anEnglishLabelIsOneSlotToo() {
        QueryTerms q = en("What does Article 4 say about leave?");
        assertEquals(List.of("article4"), q.labels().stream().map(QueryTerms.Slot::term).toList());
        assertFalse(q.terms().contains("4"), q.toString());
        assertFalse(q.terms().contains("articl"), q.toString());
    }

    @Test
    void aNamedDocumentIsADocumentWeighedByItsShareOfArticles() {
        QueryTerms q = ko("근로기준법상 해고 예고");
        assertEquals(List.of("labour"), List.copyOf(q.documents()));
        assertFalse(q.terms().contains("근로"), q.toString());
        // 4 articles, 3 of them in the named document.
        assertEquals(Math.log(1 + 4 / 3.0), q.documentIdf(), 1e-12);
        assertEquals(0.0, ko("해고 예고").documentIdf());
        assertTrue(ko("근로 기준").documents().isEmpty(), "words of a title apart from it are not the title");
    }

    @Test
    void questionFillerIsDroppedAndTheSubjectKept() {
        QueryTerms q = ko("혹시 해고는 며칠 전에 예고해야 하나요? 알려주세요");
        assertTrue(q.terms().containsAll(List.of("해고", "예고")), q.toString());
        for (String filler : List.of("혹시", "며칠", "하", "알리")) {
            assertFalse(q.terms().contains(filler), filler + " in " + q);
        }
        assertTrue(QuestionFiller.isFiller("무엇", POS.Tag.NP));
        assertTrue(QuestionFiller.isFiller("주", POS.Tag.VX), "the auxiliary 주 (알려 주세요)");
        assertFalse(QuestionFiller.isFiller("주", POS.Tag.NNG), "the noun 주 (week) is a subject");
    }

    @Test
    void theThesaurusAddsExpansionsAndAlternatives() {
        QueryTerms q = ko("회사에서 갑자기 잘렸어요");
        assertTrue(q.expansions().contains("해고"), q.toString());
        QueryTerms.Slot fired = q.slots().stream().filter(s -> s.alternatives().contains("해고")).findFirst().orElseThrow();
        assertFalse(q.expansions().contains(fired.term()), "an expansion is never a term the caller wrote");
        assertTrue(en("fired from my job").expansions().isEmpty(), "English has no built-in thesaurus");
    }

    @Test
    void koreanInformativeWordsGiveCharacterBigramsEnglishNone() {
        assertEquals(List.of("출산", "산휴", "휴가"), ko("출산휴가를 며칠").bigrams());
        assertTrue(en("annual leave").bigrams().isEmpty());
    }

    @Test
    void aCompoundNoArticleWritesIsAnUnknownConcept() {
        assertEquals(List.of("국민연금"), ko("국민연금 근로자").unknownConcepts());
        assertEquals(List.of(), ko("유급휴가 근로자").unknownConcepts(), "유급휴가 is written in 제60조");
        assertEquals(List.of(), ko("국민 연금 근로자").unknownConcepts(), "words apart are no compound");
        assertEquals(List.of(), en("national pension").unknownConcepts(), "English compounds are separate words");
    }

    @Test
    void aQueryCountsAtMostSixtyFourTerms() {
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 400; i++) {
            many.append("word").append(i).append(' ');
        }
        QueryTerms q = en(many.toString());
        assertEquals(QueryAnalyzer.MAX_QUERY_TERMS, q.slots().size());
        assertEquals("word0", q.terms().get(0), "the first terms are the ones kept");
        StringBuilder hangul = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            hangul.append((char) ('가' + 3 * i)).append((char) ('나' + 5 * i)).append((char) ('다' + 7 * i)).append(' ');
        }
        QueryTerms k = ko(hangul.toString());
        assertTrue(k.slots().size() <= QueryAnalyzer.MAX_QUERY_TERMS, "slots " + k.slots().size());
        assertEquals(QueryAnalyzer.MAX_QUERY_TERMS, k.bigrams().size(), "bigrams capped too");
        assertTrue(k.unknownConcepts().size() <= QueryAnalyzer.MAX_QUERY_TERMS);
    }
}
