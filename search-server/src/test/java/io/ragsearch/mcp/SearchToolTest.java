package io.ragsearch.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ragsearch.search.InvalidRequestException;
import io.ragsearch.search.RelevanceGate;
import io.ragsearch.search.SearchHit;
import io.ragsearch.search.SearchResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The search tool's own parts: its arguments, its answer's text and the titles it cuts. */
class SearchToolTest {

    private static SearchResponse response(boolean passed, List<SearchHit> hits) {
        return new SearchResponse("handbook", "leave", "lexical", "none", hits, new RelevanceGate.Outcome(passed, 0.8125, 0.45));
    }

    @Test
    void argumentErrorsNameTheArgument() {
        assertEquals("argument 'query' is required and must be a string",
                assertThrows(InvalidRequestException.class, () -> SearchTool.Args.of(Map.of("project", "p"))).getMessage());
        assertEquals("argument 'project' is required and must be a string",
                assertThrows(InvalidRequestException.class, () -> SearchTool.Args.of(Map.of("project", 7, "query", "q"))).getMessage());
        assertEquals("argument 'top_k' must be a whole number", assertThrows(InvalidRequestException.class,
                () -> SearchTool.Args.of(Map.of("project", "p", "query", "q", "top_k", 1.5))).getMessage());
        assertEquals(new SearchTool.Args("p", "q", 3), SearchTool.Args.of(Map.of("project", "p", "query", "q", "top_k", 3.0)));
        assertNull(SearchTool.Args.of(Map.of("project", "p", "query", "q")).topK(), "no top_k: the server's default");
    }

    @Test
    void aClosedGateSaysSoWithItsNumbersAndNoArticles() {
        assertEquals("No supporting documents in project 'handbook' for this query (best relevance 0.813, threshold 0.450).",
                SearchTool.text(response(false, List.of())));
    }

    @Test
    void eachHitIsNumberedWithItsDocumentAndATitleOnlyWhereItAddsSomething() {
        String text = SearchTool.text(response(true, List.of(
                new SearchHit("rules", "Work Rules", "Article 10", "Annual leave", 0.91234, "Fifteen days."),
                new SearchHit("rules", "Work Rules", "Article 11", "Article 11", 0.5, "Sick leave."),
                new SearchHit("pay", "Pay Rules", "제3조", "", 0.5, "월급."))));
        String n = System.lineSeparator();
        assertEquals("3 supporting article(s) in project 'handbook':\n"
                + n + "1. Work Rules Article 10 (Annual leave) (document rules, relevance 0.912)" + n + "Fifteen days." + n
                + n + "2. Work Rules Article 11 (document rules, relevance 0.500)" + n + "Sick leave." + n
                + n + "3. Pay Rules 제3조 (document pay, relevance 0.500)" + n + "월급." + n, text);
    }

    @Test
    void titlesAreCutInTheAnswerAndTheTextsAreLeftAsTheSearchGaveThem() {
        String longTitle = "t".repeat(Titles.MAX_CHARS + 1);
        String body = "b".repeat(Titles.MAX_CHARS * 2);
        SearchHit hit = SearchTool.capTitles(response(true, List.of(new SearchHit("d", longTitle, "A1", longTitle, 0.5, body))))
                .results().get(0);
        assertEquals("t".repeat(Titles.MAX_CHARS) + "…", hit.documentTitle());
        assertEquals("t".repeat(Titles.MAX_CHARS) + "…", hit.title());
        assertEquals(body, hit.text());
        String exact = "t".repeat(Titles.MAX_CHARS);
        assertEquals(exact, Titles.cap(exact), "a title at the limit stays whole");
    }
}
