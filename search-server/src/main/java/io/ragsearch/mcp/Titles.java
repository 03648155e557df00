package io.ragsearch.mcp;

/**
 * Titles come from the corpus (a heading line can be any length); answers carry them cut, as hit
 * texts already are, so one odd file cannot make an answer of hundreds of kilobytes.
 */
final class Titles {

    /** Longer than any real statute or article title; the full title stays in the corpus file. */
    static final int MAX_CHARS = 300;

    private Titles() {
    }

    static String cap(String title) {
        return title.length() <= MAX_CHARS ? title : title.substring(0, MAX_CHARS) + "…";
    }
}
