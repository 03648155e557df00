package io.ragsearch.corpus;

import java.util.Optional;

/**
 * An ATX Markdown heading line ("## Title ##"): its level and text. Parsed by hand in one pass:
 * the regular expression it replaces backtracked in cubic time on a heading with a long run of
 * spaces (a 4 KB line took 53 s), long enough to hold a pod past its startup probe.
 */
record MarkdownHeading(int level, String text) {

    static Optional<MarkdownHeading> parse(String line) {
        int hashes = 0;
        while (hashes < line.length() && line.charAt(hashes) == '#') {
            hashes++;
        }
        if (hashes < 1 || hashes > 6 || hashes == line.length() || !isSpace(line.charAt(hashes))) {
            return Optional.empty();
        }
        int end = line.length();
        while (end > hashes && isSpace(line.charAt(end - 1))) {
            end--;
        }
        while (end > hashes && line.charAt(end - 1) == '#') { // the optional closing sequence
            end--;
        }
        while (end > hashes && isSpace(line.charAt(end - 1))) {
            end--;
        }
        int start = hashes;
        while (start < end && isSpace(line.charAt(start))) {
            start++;
        }
        return Optional.of(new MarkdownHeading(hashes, line.substring(start, end)));
    }

    /** What the regular expression's \s matched. */
    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }
}
