package io.ragsearch.docs;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Whether a document's output block is what a command printed: every shown line, in order, is
 * a printed line; "…" in a shown line stands for any text (an elided tail, a timing).
 */
final class ShownOutput {
    private ShownOutput() {
    }

    /** The first shown line that the printed text lacks (in order), or null when all are there. */
    static String firstMissing(List<String> shown, String printed) {
        List<String> lines = printed.lines().map(String::stripTrailing).toList();
        int at = 0;
        for (String line : shown) {
            if (line.isBlank()) {
                continue;
            }
            Pattern pattern = pattern(line.stripTrailing());
            while (at < lines.size() && !pattern.matcher(lines.get(at)).matches()) {
                at++;
            }
            if (at == lines.size()) {
                return line;
            }
            at++;
        }
        return null;
    }

    private static Pattern pattern(String shown) {
        StringBuilder regex = new StringBuilder();
        for (String piece : shown.split("…", -1)) {
            if (!regex.isEmpty()) {
                regex.append(".*");
            }
            regex.append(Pattern.quote(piece));
        }
        return Pattern.compile(regex.toString());
    }
}
