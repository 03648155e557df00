package io.ragsearch.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ragsearch.search.InvalidRequestException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The list_documents tool's own parts: its arguments, and a page as text and as structured content. */
class ListDocumentsToolTest {

    private static final List<ListDocumentsTool.DocumentSummary> DOCS = List.of(
            new ListDocumentsTool.DocumentSummary("a-rules", "A Rules", 3), new ListDocumentsTool.DocumentSummary("b-rules", "B Rules", 1));

    @Test
    void argumentErrorsNameTheArgument() {
        assertEquals("argument 'project' is required and must be a string",
                assertThrows(InvalidRequestException.class, () -> ListDocumentsTool.Args.of(Map.of("limit", 2))).getMessage());
        assertEquals("argument 'limit' must be a whole number", assertThrows(InvalidRequestException.class,
                () -> ListDocumentsTool.Args.of(Map.of("project", "p", "limit", 2.5))).getMessage());
        assertEquals(new ListDocumentsTool.Args("p", "c1", 2), ListDocumentsTool.Args.of(Map.of("project", "p", "cursor", "c1", "limit", 2)));
        assertEquals(new ListDocumentsTool.Args("p", null, null), ListDocumentsTool.Args.of(Map.of("project", "p")));
    }

    @Test
    void aPageWithMoreAfterItSaysWhichCursorToPassInTextAndStructure() {
        DocumentPages.Page page = new DocumentPages.Page(List.of(), 5, "next-1");
        assertEquals("2 of 5 document(s) in laws:\n- a-rules: A Rules (3 articles)\n- b-rules: B Rules (1 articles)\n"
                + "more: call again with cursor next-1\n", ListDocumentsTool.text("laws", DOCS, page));
        Map<String, Object> structured = ListDocumentsTool.structured("laws", DOCS, page);
        assertEquals(List.of("project", "documents", "total", "nextCursor"), List.copyOf(structured.keySet()), "the output schema's order");
        assertEquals("next-1", structured.get("nextCursor"));
        assertEquals(5, structured.get("total"));
    }

    @Test
    void theLastPageHasNoCursorAnywhere() {
        DocumentPages.Page last = new DocumentPages.Page(List.of(), 2, null);
        assertEquals("2 of 2 document(s) in laws:\n- a-rules: A Rules (3 articles)\n- b-rules: B Rules (1 articles)\n",
                ListDocumentsTool.text("laws", DOCS, last));
        assertEquals(List.of("project", "documents", "total"), List.copyOf(ListDocumentsTool.structured("laws", DOCS, last).keySet()));
    }
}
