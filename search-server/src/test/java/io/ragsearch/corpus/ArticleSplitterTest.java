package io.ragsearch.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ArticleSplitterTest {

    private static final String STATUTE = """
            # 예시법

            ## 제1장 총칙 <개정 2020.1.1>

            ##### 제1조 (목적)

            이 법은 예시를 목적으로 한다.

            ##### 제2조 (정의)

            **①** 이 법에서 "직원"이란 제1조에 따른 사람을 말한다.

            제3조에 따른 경우도 같다.

            ## 제2장 근로

            ##### 제12조의2

            삭제 <2021.5.25>

            ##### 제76조의3 (직장 내 괴롭힘 발생 시 조치)

            **①** 누구든지 신고할 수 있다.

            ###### 세부 사항

            신고는 서면으로 한다.

            ##### 제14조 삭제 <2007.11.13>

            ## 부칙

            부칙 <제8372호,2007.4.11>

            제1조 (시행일) 이 법은 공포한 날부터 시행한다.
            """;

    @Test
    void splitsKoreanArticlesKeepingLabelsAndTitlesExactly() {
        List<Article> articles = new ArticleSplitter(false).split(STATUTE, "예시법");
        assertEquals(List.of("제1조", "제2조", "제12조의2", "제76조의3", "제14조"), articles.stream().map(Article::label).toList());
        assertEquals("목적", articles.get(0).title());
        assertEquals("이 법은 예시를 목적으로 한다.", articles.get(0).body());
        assertEquals("직장 내 괴롭힘 발생 시 조치", articles.get(3).title());
        assertEquals(List.of(1, 2, 3, 4, 5), articles.stream().map(Article::ordinal).toList());
    }

    @Test
    void inlineReferencesToOtherArticlesDoNotStartArticles() {
        Article definitions = new ArticleSplitter(false).split(STATUTE, "예시법").get(1);
        assertTrue(definitions.body().contains("제3조에 따른 경우도 같다."), definitions.body());
    }

    @Test
    void chapterHeadingsEndAnArticleButDeeperHeadingsBelongToIt() {
        List<Article> articles = new ArticleSplitter(false).split(STATUTE, "예시법");
        assertFalse(articles.get(1).body().contains("제2장"), articles.get(1).body());
        assertTrue(articles.get(3).body().contains("세부 사항"));
        assertTrue(articles.get(3).body().contains("신고는 서면으로 한다."));
    }

    @Test
    void deletedArticlesAreKeptAndMarked() {
        List<Article> articles = new ArticleSplitter(false).split(STATUTE, "예시법");
        assertTrue(articles.get(2).deleted(), "body 삭제 <date>");
        assertTrue(articles.get(4).deleted(), "삭제 on the heading line");
        assertFalse(articles.get(3).deleted());
    }

    @Test
    void bareHeadingsAreNeverEvidence() {
        List<Article> articles = new ArticleSplitter(false).split("##### 제6조\n\n##### 제7조 (암호)\n\n본문.\n", "규정");
        assertTrue(articles.get(0).deleted(), "no title, no body");
        assertFalse(articles.get(1).deleted());
    }

    @Test
    void addendaAreSkippedByDefaultAndKeptOnRequest() {
        List<Article> skipped = new ArticleSplitter(false).split(STATUTE, "예시법");
        assertTrue(skipped.stream().noneMatch(a -> a.body().contains("공포한 날")));
        List<Article> kept = new ArticleSplitter(true).split(STATUTE, "예시법");
        assertTrue(kept.stream().anyMatch(a -> a.body().contains("공포한 날")));
        assertTrue(kept.stream().anyMatch(a -> a.label().equals("제1조 (2)")), "addenda 제1조 gets a distinct label");
    }

    @Test
    void plainLinesWithTitledLabelsStartArticles() {
        String text = """
                제1조(목적) 이 규칙은 목적을 정한다.
                제2조(적용) 모든 직원에게 적용한다.
                제1조제2항에 따른 예외는 없다.
                """;
        List<Article> articles = new ArticleSplitter(false).split(text, "규칙");
        assertEquals(List.of("제1조", "제2조"), articles.stream().map(Article::label).toList());
        assertEquals("이 규칙은 목적을 정한다.", articles.get(0).body());
        assertTrue(articles.get(1).body().endsWith("제1조제2항에 따른 예외는 없다."));
    }

    @Test
    void englishNumberedArticles() {
        String text = """
                # Handbook
                ## Chapter 1
                ### Article 4 (Annual leave)
                Fifteen days.
                ### Article 5. Sick leave
                Thirty days.
                ### Article 6
                [Deleted]
                """;
        List<Article> articles = new ArticleSplitter(false).split(text, "Handbook");
        assertEquals(List.of("Article 4", "Article 5", "Article 6"), articles.stream().map(Article::label).toList());
        assertEquals(List.of("Annual leave", "Sick leave", ""), articles.stream().map(Article::title).toList());
        assertEquals("Fifteen days.", articles.get(0).body());
        assertTrue(articles.get(2).deleted());
    }

    @Test
    void documentsWithoutNumberedArticlesSplitOnHeadings() {
        String text = """
                # Expense policy
                Intro line.
                ## Hotels
                Up to 100,000 won.
                ### Seoul
                Up to 120,000 won.
                ## Meals
                30,000 won a day.
                """;
        List<Article> articles = new ArticleSplitter(false).split(text, "Expense policy");
        assertEquals(List.of("Hotels", "Meals"), articles.stream().map(Article::label).toList());
        assertTrue(articles.get(0).body().contains("Up to 120,000 won."));
    }

    @Test
    void aDocumentWithoutHeadingsIsOneArticle() {
        List<Article> articles = new ArticleSplitter(false).split("Just a note.\nSecond line.", "Note");
        assertEquals(1, articles.size());
        assertEquals(ArticleSplitter.WHOLE_DOCUMENT_LABEL, articles.get(0).label());
        assertEquals("Note", articles.get(0).title());
        assertEquals("Just a note.\nSecond line.", articles.get(0).body());
    }

    @Test
    void findsTheTitleHeading() {
        assertEquals("예시법", ArticleSplitter.firstTitleHeading(STATUTE).orElseThrow());
    }

    @Test
    void headingsWithLongRunsOfSpacesSplitInLinearTime() {
        // The review's case took 53 s with the old regular expression; 100 of them must stay well under a second each.
        String evil = "## a" + " ".repeat(4000) + "x\n";
        String body = ("# Title\n" + evil + "text\n").repeat(100) + "제1조" + " ".repeat(100_000) + "x\n";
        long t0 = System.nanoTime();
        List<Article> articles = new ArticleSplitter(false).split(body, "T");
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertTrue(seconds < 10, "took " + seconds + " s");
        System.out.printf(java.util.Locale.ROOT, "[splitter] 100 pathological headings split in %.3f s%n", seconds);
        assertEquals(100, articles.size(), "one section per level-one heading");
        assertEquals("a" + " ".repeat(4000) + "x", MarkdownHeading.parse(evil.strip()).orElseThrow().text());
    }

    @Test
    void headingTextAndLevelsMatchTheMarkdownRules() {
        assertEquals(new MarkdownHeading(2, "Title"), MarkdownHeading.parse("## Title ##").orElseThrow());
        assertEquals(new MarkdownHeading(3, "C# basics"), MarkdownHeading.parse("### C# basics").orElseThrow());
        assertEquals(new MarkdownHeading(1, ""), MarkdownHeading.parse("# #").orElseThrow());
        assertTrue(MarkdownHeading.parse("####### seven").isEmpty());
        assertTrue(MarkdownHeading.parse("#hashtag").isEmpty());
        assertTrue(MarkdownHeading.parse("##").isEmpty());
    }
}
