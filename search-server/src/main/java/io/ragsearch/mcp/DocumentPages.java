package io.ragsearch.mcp;

import io.ragsearch.corpus.Document;
import io.ragsearch.search.InvalidRequestException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;

/**
 * One page of {@code list_documents}: documents in id order after the cursor, at most
 * {@code limit} of them. The cursor is the last id of the previous page (base64url), not an
 * offset, so a corpus refreshed between two pages skips and repeats nothing that stayed.
 * Pure: a project's documents in, a page out.
 */
final class DocumentPages {

    /** Without a limit: about 10 KB of answer for ordinary titles. */
    static final int DEFAULT_LIMIT = 100;
    /** The largest page: 500 documents with titles cut at 300 characters stay well under a megabyte (20,000 unpaged were 1.9 MB). */
    static final int MAX_LIMIT = 500;

    record Page(List<Document> documents, int total, String nextCursor) {
    }

    private DocumentPages() {
    }

    static Page page(List<Document> documents, String cursor, Integer limit) {
        int size = limit == null ? DEFAULT_LIMIT : limit;
        if (size < 1 || size > MAX_LIMIT) {
            throw new InvalidRequestException("limit must be an integer 1–" + MAX_LIMIT + ", got " + size);
        }
        String after = cursor == null ? null : decode(cursor);
        List<Document> sorted = documents.stream().sorted(Comparator.comparing(Document::id)).toList();
        List<Document> rest = after == null ? sorted : sorted.stream().filter(d -> d.id().compareTo(after) > 0).toList();
        List<Document> page = rest.subList(0, Math.min(size, rest.size()));
        String next = rest.size() > page.size() ? encode(page.get(page.size() - 1).id()) : null;
        return new Page(page, sorted.size(), next);
    }

    static String encode(String id) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(id.getBytes(StandardCharsets.UTF_8));
    }

    private static String decode(String cursor) {
        try {
            byte[] bytes = Base64.getUrlDecoder().decode(cursor);
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (IllegalArgumentException | CharacterCodingException e) {
            throw new InvalidRequestException("invalid cursor " + ToolCatalog.quoted(cursor)
                    + ": pass the nextCursor of the previous list_documents answer, or none for the first page");
        }
    }
}
