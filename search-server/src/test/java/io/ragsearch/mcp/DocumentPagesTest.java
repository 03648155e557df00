package io.ragsearch.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.corpus.Article;
import io.ragsearch.corpus.Corpus;
import io.ragsearch.corpus.Document;
import io.ragsearch.search.InvalidRequestException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** Issue 21 low: list_documents of 20,000 documents was one 1.9 MB answer; now pages of at most 500. Issue 32: cursors are checked. */
class DocumentPagesTest {

    private static Corpus corpus(String project, String version, int n) {
        return new Corpus(project, documents(n), version);
    }

    private static Corpus documentsOf(int n) {
        return corpus("laws", "v1", n);
    }

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
        Corpus docs = documentsOf(20_000);
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
                    .map(d -> new ListDocumentsTool.DocumentSummary(d.id(), d.title(), d.articles().size())).toList()).length());
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
        DocumentPages.Page first = DocumentPages.page(documentsOf(150), null, null);
        assertEquals(100, first.documents().size());
        DocumentPages.Page second = DocumentPages.page(documentsOf(150), first.nextCursor(), null);
        assertEquals(50, second.documents().size());
        assertEquals("law-00100", second.documents().get(0).id());
        assertNull(second.nextCursor());
    }

    /** Issue 32: a forged cursor, another project's, or one from before a refresh was honoured (a page from elsewhere). */
    @Test
    void aCursorIsHonouredOnlyForTheProjectAndCorpusVersionItWasIssuedFor() {
        String cursor = DocumentPages.page(documentsOf(20), null, 5).nextCursor();
        assertEquals("law-00005", DocumentPages.page(documentsOf(20), cursor, 5).documents().get(0).id());
        assertEquals("invalid cursor " + ToolCatalog.quoted(cursor) + ": it was issued for another project; pass none for the first "
                + "page of 'rules'", refusal(corpus("rules", "v1", 20), cursor));
        assertEquals("invalid cursor " + ToolCatalog.quoted(cursor) + ": the documents of 'laws' changed since it was issued; list "
                + "again from the first page (no cursor)", refusal(corpus("laws", "v2", 20), cursor));
        // Well formed, right project and version, but an id the corpus does not have: made up, not handed out.
        String forged = DocumentPages.encode(documentsOf(20), "law-00009x");
        assertTrue(refusal(documentsOf(20), forged).endsWith("this server did not hand it out; pass the nextCursor of the previous "
                + "list_documents answer"), refusal(documentsOf(20), forged));
        // The old form (the last id alone, base64url) is no cursor either.
        String bare = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString("law-00004".getBytes(StandardCharsets.UTF_8));
        assertTrue(refusal(documentsOf(20), bare).startsWith("invalid cursor '"), refusal(documentsOf(20), bare));
    }

    private static String refusal(Corpus corpus, String cursor) {
        return assertThrows(InvalidRequestException.class, () -> DocumentPages.page(corpus, cursor, 5)).getMessage();
    }

    @Test
    void aForgedCursorOrLimitIsAClearError() {
        for (String bad : List.of("!!!", "a b", "_w")) { // not base64url; "_w" decodes to 0xFF, not UTF-8
            InvalidRequestException e = assertThrows(InvalidRequestException.class, () -> DocumentPages.page(documentsOf(3), bad, null));
            assertTrue(e.getMessage().startsWith("invalid cursor '"), e.getMessage());
        }
        assertEquals("limit must be an integer 1–500, got 501",
                assertThrows(InvalidRequestException.class, () -> DocumentPages.page(documentsOf(3), null, 501)).getMessage());
    }
}
