package io.ragsearch.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.corpus.Article;
import io.ragsearch.corpus.Document;
import io.ragsearch.search.InvalidRequestException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** Issue 21 low: list_documents of 20,000 documents was one 1.9 MB answer; now pages of at most 500. */
class DocumentPagesTest {

    private static List<Document> documents(int n) {
        List<Document> docs = new ArrayList<>();
        for (int i = n - 1; i >= 0; i--) { // out of order on purpose: pages are in id order
            docs.add(new Document(String.format("law-%05d", i), "Statute number " + i + " " + "t".repeat(60), "sha",
                    List.of(new Article("제1조", 1, "목적", "본문", false))));
        }
        return docs;
    }

    @Test
    void twentyThousandDocumentsComeInBoundedPagesThatCoverEachOnce() {
        List<Document> docs = documents(20_000);
        Set<String> seen = new HashSet<>();
        String cursor = null;
        int pages = 0;
        int largestPageJson = 0;
        String last = "";
        do {
            DocumentPages.Page page = DocumentPages.page(docs, cursor, DocumentPages.MAX_LIMIT);
            assertEquals(20_000, page.total());
            assertTrue(page.documents().size() <= DocumentPages.MAX_LIMIT);
            for (Document d : page.documents()) {
                assertTrue(d.id().compareTo(last) > 0, "id order");
                assertTrue(seen.add(d.id()), "twice: " + d.id());
                last = d.id();
            }
            largestPageJson = Math.max(largestPageJson, JsonMapper.builder().build().writeValueAsString(page.documents().stream()
                    .map(d -> new SearchTools.DocumentSummary(d.id(), d.title(), d.articles().size())).toList()).length());
            cursor = page.nextCursor();
            pages++;
        } while (cursor != null);
        assertEquals(20_000, seen.size());
        assertEquals(40, pages);
        System.out.printf("list_documents of 20,000: %d pages of %d, the largest %d bytes of JSON%n", pages, DocumentPages.MAX_LIMIT,
                largestPageJson);
        assertTrue(largestPageJson < 100_000, largestPageJson + " bytes");
    }

    @Test
    void theDefaultPageIsAHundredAndTheLastPageHasNoCursor() {
        DocumentPages.Page first = DocumentPages.page(documents(150), null, null);
        assertEquals(100, first.documents().size());
        DocumentPages.Page second = DocumentPages.page(documents(150), first.nextCursor(), null);
        assertEquals(50, second.documents().size());
        assertEquals("law-00100", second.documents().get(0).id());
        assertNull(second.nextCursor());
    }

    @Test
    void aCursorOfADocumentRemovedMeanwhileStillContinuesAfterIt() {
        String cursor = DocumentPages.encode("law-00009x");
        assertEquals("law-00010", DocumentPages.page(documents(20), cursor, 5).documents().get(0).id());
    }

    @Test
    void aForgedCursorOrLimitIsAClearError() {
        for (String bad : List.of("!!!", "a b", "_w")) { // not base64url; "_w" decodes to 0xFF, not UTF-8
            InvalidRequestException e = assertThrows(InvalidRequestException.class, () -> DocumentPages.page(documents(3), bad, null));
            assertTrue(e.getMessage().startsWith("invalid cursor '"), e.getMessage());
        }
        assertEquals("limit must be an integer 1–500, got 501",
                assertThrows(InvalidRequestException.class, () -> DocumentPages.page(documents(3), null, 501)).getMessage());
    }
}
