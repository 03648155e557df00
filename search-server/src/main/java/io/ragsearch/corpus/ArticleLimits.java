package io.ragsearch.corpus;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * What one article must satisfy to be indexed at all, checked where a corpus is read (a directory
 * or the database), so that one bad entry is a load problem of its own and never stops the
 * project or the server. The index keeps an article's label and its document's id as single
 * terms, and Lucene refuses a term over 32,766 UTF-8 bytes with an exception that would end the
 * whole index build; the limits here sit far below that and far above any real label or id.
 */
public final class ArticleLimits {

    /** A label ("제18조의2", "Article 4", a Markdown heading) in UTF-8 bytes, after normalisation. */
    public static final int MAX_LABEL_BYTES = 8 * 1024;
    /** A document id (a path below the corpus directory, or a database key) in UTF-8 bytes. */
    public static final int MAX_ID_BYTES = 8 * 1024;
    private static final int SHOWN = 60;

    private ArticleLimits() {
    }

    /** Why this live article cannot be indexed, or empty. */
    public static Optional<String> labelProblem(String label) {
        int bytes = label == null ? 0 : ArticleLabels.normalize(label).getBytes(StandardCharsets.UTF_8).length;
        return bytes > MAX_LABEL_BYTES
                ? Optional.of("article '" + shown(label) + "': a heading label of " + bytes + " bytes (at most " + MAX_LABEL_BYTES
                        + "), left out")
                : Optional.empty();
    }

    /** Why this document id cannot be indexed, or empty. */
    public static Optional<String> idProblem(String id) {
        int bytes = id == null ? 0 : id.getBytes(StandardCharsets.UTF_8).length;
        return bytes > MAX_ID_BYTES ? Optional.of("a document id of " + bytes + " bytes (at most " + MAX_ID_BYTES + "), left out")
                : Optional.empty();
    }

    /** A value as a load problem may show it: the first characters, line breaks escaped. */
    public static String shown(String value) {
        if (value == null) {
            return "";
        }
        String head = value.length() > SHOWN ? value.substring(0, SHOWN) + "…" : value;
        return head.replace("\r", "\\r").replace("\n", "\\n");
    }
}
