package io.ragsearch.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ragsearch.corpus.Article;
import io.ragsearch.corpus.Document;
import io.ragsearch.search.InvalidRequestException;
import io.ragsearch.search.NotFoundException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The read_article tool's own parts: its arguments, the unknown-article answer and the article as text. */
class ReadArticleToolTest {

    private static final Document RULES = new Document("rules", "취업규칙", "sha", List.of(
            new Article("제1조", 1, "목적", "이 규칙은 근로조건을 정한다.", false),
            new Article("제2조", 2, "", "삭제", true)));

    @Test
    void argumentErrorsNameTheArgument() {
        assertEquals("argument 'document' is required and must be a string", assertThrows(InvalidRequestException.class,
                () -> ReadArticleTool.Args.of(Map.of("project", "p", "article", "제1조"))).getMessage());
        assertEquals("argument 'article' is required and must be a string", assertThrows(InvalidRequestException.class,
                () -> ReadArticleTool.Args.of(Map.of("project", "p", "document", "rules", "article", 1))).getMessage());
        assertEquals(new ReadArticleTool.Args("p", "rules", "제1조"),
                ReadArticleTool.Args.of(Map.of("project", "p", "document", "rules", "article", "제1조")));
    }

    @Test
    void anUnknownArticleIsNotFoundNamingTheDocumentsArticles() {
        assertEquals("unknown article '제9조' in document 'rules'; articles: 제1조, 제2조",
                assertThrows(NotFoundException.class, () -> ReadArticleTool.article(RULES, "제9조")).getMessage());
        assertEquals("제1조", ReadArticleTool.article(RULES, "제1조").label());
    }

    @Test
    void theTextIsTheHeadingThenTheBodyWithADeletedArticleMarked() {
        assertEquals("취업규칙 제1조 (목적)\n\n이 규칙은 근로조건을 정한다.",
                ReadArticleTool.text(ReadArticleTool.ArticleText.of("hr", RULES, RULES.articles().get(0))));
        ReadArticleTool.ArticleText deleted = ReadArticleTool.ArticleText.of("hr", RULES, RULES.articles().get(1));
        assertEquals("취업규칙 제2조 [deleted]\n\n삭제", ReadArticleTool.text(deleted));
        assertEquals(true, deleted.deleted());
    }

    @Test
    void titlesAreCutAndTheTextIsWhole() {
        String longTitle = "제".repeat(Titles.MAX_CHARS + 5);
        String body = "본문".repeat(Titles.MAX_CHARS);
        Document doc = new Document("long", longTitle, "sha", List.of(new Article("제1조", 1, longTitle, body, false)));
        ReadArticleTool.ArticleText a = ReadArticleTool.ArticleText.of("hr", doc, doc.articles().get(0));
        assertEquals(Titles.MAX_CHARS + 1, a.documentTitle().length());
        assertEquals(Titles.MAX_CHARS + 1, a.title().length());
        assertEquals(body, a.text());
    }
}
