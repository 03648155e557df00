package io.ragsearch.query;

import io.ragsearch.corpus.Document;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A document a question can name by its title ("근로기준법에서 …", "the Expense Policy"):
 * matched with any spacing ("공무원 행동강령" names 공무원행동강령), whole titles only.
 */
record NamedDocument(String id, Pattern pattern, int articles) {

    /** Shorter titles ("법", "규칙") would match inside ordinary words. */
    private static final int MIN_TITLE_CHARS = 4;
    /** Nobody types a longer title into a question (queries are at most 1000 characters); a huge title would make a huge pattern. */
    private static final int MAX_TITLE_CHARS = 100;

    /** @param documentOfEachArticle the document of each live article: a document's count is its live articles */
    static List<NamedDocument> of(List<Document> documentOfEachArticle) {
        Map<String, String> titles = new LinkedHashMap<>();
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Document d : documentOfEachArticle) {
            titles.putIfAbsent(d.id(), d.title());
            counts.merge(d.id(), 1, Integer::sum);
        }
        List<NamedDocument> out = new ArrayList<>();
        titles.forEach((id, title) -> {
            String compact = title.replaceAll("\\s+", "");
            int length = compact.codePointCount(0, compact.length());
            if (length >= MIN_TITLE_CHARS && length <= MAX_TITLE_CHARS) {
                StringBuilder regex = new StringBuilder("(?iu)");
                compact.codePoints().forEach(cp -> regex.append(Pattern.quote(Character.toString(cp))).append("\\s*"));
                // With the particle or suffix written onto it ("근로기준법에서", "근로기준법상"): no word of its own.
                regex.append("\\S*");
                out.add(new NamedDocument(id, Pattern.compile(regex.toString()), counts.get(id)));
            }
        });
        // Longest first: "공무원행동강령" before a shorter title it contains.
        out.sort((x, y) -> y.pattern().pattern().length() - x.pattern().pattern().length());
        return out;
    }
}
