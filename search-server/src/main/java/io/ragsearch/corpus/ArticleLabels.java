package io.ragsearch.corpus;

import java.util.Locale;
import java.util.regex.Pattern;

/** How callers may spell an article label: "제 18 조", "제18조", "article 4" all find the same article. */
public final class ArticleLabels {

    private static final Pattern SPACES = Pattern.compile("\\s+");

    private ArticleLabels() {
    }

    public static String normalize(String label) {
        return SPACES.matcher(label.strip()).replaceAll("").toLowerCase(Locale.ROOT);
    }
}
