package io.ragsearch.verification;

import java.util.Locale;
import java.util.Map;

/** {@code read_article}: the article exists, with this title and/or a text containing this phrase. */
public record ReadArticleCheck(String id, String project, String document, String article, String title, String contains)
        implements Check {

    /** The article's title and text as returned; two servers differ when either differs. */
    record Facts(String title, String text) {
    }

    @Override
    public String kind() {
        return "read_article";
    }

    @Override
    public String describe() {
        return "read_article " + project + " " + document + " " + article + " →"
                + (title != null ? " title \"" + title + "\"" : "") + (contains != null ? " text with \"" + Calls.cut(contains, 40) + "\"" : "");
    }

    @Override
    public Observation observe(Side side) {
        Calls.Timed t = Calls.call(side, "read_article", Map.of("project", project, "document", document, "article", article));
        if (t.failure() != null) {
            return t.failure();
        }
        if (t.answer().error()) {
            return Calls.unexpectedError(t);
        }
        Map<String, Object> body = t.answer().structured();
        if (body == null || !(body.get("title") instanceof String gotTitle) || !(body.get("text") instanceof String text)) {
            return Observation.failed("bad answer", "the read_article answer does not have the declared shape (title, text)", t.millis());
        }
        Facts f = new Facts(gotTitle, text);
        return Observation.of("\"" + Calls.cut(gotTitle, 24) + "\", " + text.length() + " chars", f, t.millis());
    }

    @Override
    public String problem(Observation own, Observation baseline) {
        if (own.failed()) {
            return own.failure();
        }
        Facts f = (Facts) own.facts();
        if (title != null && !f.title().strip().equals(title.strip())) {
            return "the title is \"" + f.title() + "\", expected \"" + title + "\"";
        }
        if (contains != null && !normal(f.text()).contains(normal(contains))) {
            return "the text does not contain \"" + contains + "\"";
        }
        return null;
    }

    /** Phrases are matched case-blind with runs of white space as one space (line breaks in the Markdown do not matter). */
    private static String normal(String s) {
        return s.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }

    @Override
    public String difference(Observation baseline, Observation candidate) {
        if (baseline.failed() || candidate.failed()) {
            return Check.shownDifference(baseline, candidate, null, null);
        }
        Facts b = (Facts) baseline.facts();
        Facts c = (Facts) candidate.facts();
        if (!b.title().equals(c.title())) {
            return "title \"" + Calls.cut(b.title(), 30) + "\" → \"" + Calls.cut(c.title(), 30) + "\"";
        }
        if (!b.text().equals(c.text())) {
            return "text changed (" + b.text().length() + " → " + c.text().length() + " chars)";
        }
        return null;
    }
}
