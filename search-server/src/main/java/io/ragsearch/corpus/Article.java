package io.ragsearch.corpus;

/**
 * One article of a document, as written: {@code label} is kept exactly ("제18조", "제76조의3",
 * "Article 4", or a Markdown heading's text), {@code ordinal} is its position in the document.
 * A deleted article ("삭제") stays in the corpus so it can be read, but is never evidence.
 */
public record Article(String label, int ordinal, String title, String body, boolean deleted) {

    /** Title and body together: what the index and the embedding see. */
    public String searchableText() {
        return title.isEmpty() ? body : title + "\n" + body;
    }
}
