package io.ragsearch.mcp;

import io.ragsearch.corpus.Corpus;
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
 * {@code limit} of them. The cursor names the project, the corpus version it was issued for and
 * the last id of the previous page (base64url); it is honoured only for that project and version
 * and when that id is one of its documents, so a forged cursor, another project's, or one from
 * before a refresh is a tool error instead of a page that silently starts elsewhere. A plain
 * check, not an HMAC: every cursor that passes is exactly one this server would hand out, and
 * replicas serving the same corpus (the version is a digest of its content) accept each other's
 * without sharing a key. Pure: a project's corpus in, a page out.
 */
final class DocumentPages {

    /** Without a limit: about 10 KB of answer for ordinary titles. */
    static final int DEFAULT_LIMIT = 100;
    /** The largest page: 500 documents with titles cut at 300 characters stay well under a megabyte (20,000 unpaged were 1.9 MB). */
    static final int MAX_LIMIT = 500;
    /** Separates the cursor's parts: no project name, version or document id holds a NUL. */
    private static final char SEPARATOR = '\u0000';
    private static final String FORMAT = "1";

    record Page(List<Document> documents, int total, String nextCursor) {
    }

    private DocumentPages() {
    }

    static Page page(Corpus corpus, String cursor, Integer limit) {
        int size = limit == null ? DEFAULT_LIMIT : limit;
        if (size < 1 || size > MAX_LIMIT) {
            throw new InvalidRequestException("limit must be an integer 1–" + MAX_LIMIT + ", got " + size);
        }
        List<Document> sorted = corpus.documents().stream().sorted(Comparator.comparing(Document::id)).toList();
        String after = cursor == null ? null : lastId(corpus, cursor);
        List<Document> rest = after == null ? sorted : sorted.stream().filter(d -> d.id().compareTo(after) > 0).toList();
        List<Document> page = rest.subList(0, Math.min(size, rest.size()));
        String next = rest.size() > page.size() ? encode(corpus, page.get(page.size() - 1).id()) : null;
        return new Page(page, sorted.size(), next);
    }

    static String encode(Corpus corpus, String lastId) {
        String plain = String.join(String.valueOf(SEPARATOR), FORMAT, corpus.project(), corpus.version(), lastId);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.UTF_8));
    }

    /** The id the cursor continues after, when it was issued for this corpus; a tool error otherwise. */
    private static String lastId(Corpus corpus, String cursor) {
        String[] parts = decode(cursor).split(String.valueOf(SEPARATOR), -1);
        if (parts.length != 4 || !parts[0].equals(FORMAT)) {
            throw invalid(cursor, "pass the nextCursor of the previous list_documents answer, or none for the first page");
        }
        if (!parts[1].equals(corpus.project())) {
            throw invalid(cursor, "it was issued for another project; pass none for the first page of "
                    + ToolCatalog.quoted(corpus.project()));
        }
        if (!parts[2].equals(corpus.version())) {
            throw invalid(cursor, "the documents of " + ToolCatalog.quoted(corpus.project())
                    + " changed since it was issued; list again from the first page (no cursor)");
        }
        if (corpus.document(parts[3]).isEmpty()) {
            throw invalid(cursor, "this server did not hand it out; pass the nextCursor of the previous list_documents answer");
        }
        return parts[3];
    }

    private static String decode(String cursor) {
        try {
            byte[] bytes = Base64.getUrlDecoder().decode(cursor);
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (IllegalArgumentException | CharacterCodingException e) {
            throw invalid(cursor, "pass the nextCursor of the previous list_documents answer, or none for the first page");
        }
    }

    private static InvalidRequestException invalid(String cursor, String why) {
        return new InvalidRequestException("invalid cursor " + ToolCatalog.quoted(cursor) + ": " + why);
    }
}
