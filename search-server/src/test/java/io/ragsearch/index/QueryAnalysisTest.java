package io.ragsearch.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.corpus.Article;
import io.ragsearch.corpus.Corpus;
import io.ragsearch.corpus.Document;
import io.ragsearch.query.QueryAnalyzer;
import io.ragsearch.query.QueryTerms;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** How an analysed question becomes evidence and rank: filler, thesaurus, named documents and unknown concepts seen through coverage and the lexical leg. */
class QueryAnalysisTest {

    private static ProjectIndex index;

    @BeforeAll
    static void build() throws Exception {
        Corpus corpus = new Corpus("p", List.of(
                new Document("labour", "근로기준법", "d1", List.of(
                        new Article("제26조", 0, "해고의 예고", "사용자는 근로자를 해고하려면 적어도 30일 전에 예고를 하여야 한다.", false),
                        new Article("제60조", 1, "연차 유급휴가", "사용자는 1년간 80퍼센트 이상 출근한 근로자에게 15일의 유급휴가를 주어야 한다.", false),
                        new Article("제75조", 2, "육아 시간", "생후 1년 미만의 유아를 가진 여성 근로자가 청구하면 1일 2회 각각 30분 이상의 유급 수유 시간을 주어야 한다.", false))),
                new Document("wage", "최저임금법", "d2", List.of(
                        new Article("제10조", 0, "최저임금의 고시와 효력발생", "고용노동부장관은 최저임금을 결정한 때에는 지체 없이 그 내용을 고시하여야 한다.", false)))),
                "v1");
        index = IndexBuilder.build(corpus, Language.KOREAN, null, null);
    }

    @AfterAll
    static void close() {
        index.close();
    }

    private static int position(String document, String label) {
        for (int i = 0; i < index.size(); i++) {
            IndexedArticle a = index.article(i);
            if (a.document().id().equals(document) && a.article().label().equals(label)) {
                return i;
            }
        }
        throw new AssertionError("no " + document + " " + label);
    }

    @Test
    void questionEndingsAndFillerDoNotLowerTheEvidence() {
        int dismissal = position("labour", "제26조");
        double plain = index.coverage(index.queryAnalyzer().analyze("근로자 해고 예고"), dismissal);
        QueryTerms asked = index.queryAnalyzer().analyze("혹시 근로자를 해고하려면 며칠 전에 예고해야 하나요? 궁금한데요 알려주세요");
        assertEquals(1.0, plain, 1e-9);
        assertEquals(plain, index.coverage(asked, dismissal), 1e-9, "filler counted: " + asked);
        assertFalse(asked.terms().contains("며칠"), asked.toString());
        assertFalse(asked.terms().contains("하"), asked.toString());
    }

    @Test
    void englishQuestionWordsDoNotLowerTheEvidenceEither() throws Exception {
        Corpus corpus = new Corpus("en", List.of(new Document("handbook", "Handbook", "d", List.of(
                new Article("Article 10", 0, "Annual leave", "Employees receive 25 days of annual leave per calendar year.", false),
                new Article("Article 11", 1, "Sick leave", "Report sickness to your manager before 10:00.", false)))), "v1");
        try (ProjectIndex english = IndexBuilder.build(corpus, Language.ENGLISH, null, null)) {
            double plain = english.coverage(english.queryAnalyzer().analyze("annual leave days"), 0);
            QueryTerms asked = english.queryAnalyzer().analyze("How many days of annual leave do I get? What about when?");
            assertEquals(1.0, plain, 1e-9);
            assertEquals(plain, english.coverage(asked, 0), 1e-9, "question words counted: " + asked);
        }
    }

    @Test
    void everydayWordsReachTheDocumentsTermsThroughTheThesaurus() {
        QueryTerms q = index.queryAnalyzer().analyze("회사에서 갑자기 잘렸어요");
        assertTrue(q.expansions().contains("해고"), q.toString());
        assertEquals(position("labour", "제26조"), index.lexical(q, 3).get(0).position(), "the dismissal article ranks first");
        QueryTerms milk = index.queryAnalyzer().analyze("아기 젖 먹이러 나가도 돼요?");
        assertEquals(position("labour", "제75조"), index.lexical(milk, 3).get(0).position());
        assertTrue(index.coverage(milk, position("labour", "제75조")) > 0.6,
                "젖 is covered by 수유, 아기 by 유아: " + index.coverage(milk, position("labour", "제75조")));
    }

    @Test
    void aNamedDocumentTitleIsADocumentNotWords() {
        QueryTerms q = index.queryAnalyzer().analyze("최저임금법에서 최저임금 고시는 어떻게 하나요");
        assertEquals(List.of("wage"), List.copyOf(q.documents()));
        assertFalse(q.terms().contains("법"), q.toString());
        assertEquals(1.0, index.coverage(q, position("wage", "제10조")), 1e-9);
        assertTrue(index.coverage(q, position("labour", "제60조")) < 0.5);
    }

    @Test
    void aHugeDocumentTitleIsNoPattern() throws Exception {
        Corpus corpus = new Corpus("p", List.of(new Document("huge", "제목".repeat(50_000), "d", List.of(
                new Article("제1조", 0, "목적", "이 규칙은 목적을 정한다.", false)))), "v1");
        try (ProjectIndex huge = IndexBuilder.build(corpus, Language.KOREAN, null, null)) {
            assertTrue(huge.queryAnalyzer().analyze("제목 목적").documents().isEmpty());
        }
    }

    @Test
    void aConceptNoArticleHoldsCostsEvidence() {
        QueryTerms pension = index.queryAnalyzer().analyze("국민연금 근로자 휴가");
        assertEquals(List.of("국민연금"), pension.unknownConcepts());
        QueryTerms written = index.queryAnalyzer().analyze("유급휴가 근로자");
        assertTrue(written.unknownConcepts().isEmpty(), "유급휴가 is written in 제60조: " + written);
        double with = index.coverage(pension, position("labour", "제60조"));
        double without = index.coverage(index.queryAnalyzer().analyze("국민 연금 근로자 휴가"), position("labour", "제60조"));
        assertEquals(without * ProjectIndex.UNKNOWN_CONCEPT_FACTOR, with, 1e-9);
    }

    @Test
    void labelsAreMatchedWholeAndAHugeQueryStaysBounded() {
        QueryTerms q = index.queryAnalyzer().analyze("제 60 조 연차");
        assertEquals("제60조", q.labels().get(0).term());
        assertEquals(position("labour", "제60조"), index.lexical(q, 1).get(0).position());
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 400; i++) {
            many.append("단어").append(i).append(' ');
        }
        QueryTerms huge = index.queryAnalyzer().analyze(many.toString());
        assertTrue(huge.slots().size() <= QueryAnalyzer.MAX_QUERY_TERMS);
        index.lexical(huge, 5); // no TooManyClauses
    }
}
