package io.ragsearch.verification;

import java.util.Locale;
import java.util.Map;

/**
 * A call that must end as a tool error ({@code isError: true}, not a transport failure): an
 * unknown project or document, an empty query. {@code message}, when given, is a phrase the
 * error must contain (case-blind).
 */
public record ErrorCheck(String id, String tool, Map<String, Object> arguments, String message) implements Check {

    /** The tools a call may name: the server's four. */
    static final java.util.List<String> TOOLS = java.util.List.of("list_projects", "search", "list_documents", "read_article");

    public ErrorCheck {
        arguments = Map.copyOf(arguments);
    }

    /** Whether the call was a tool error, and the error's (or answer's) first line. */
    record Facts(boolean error, String text) {
    }

    @Override
    public String kind() {
        return "error";
    }

    @Override
    public String describe() {
        return tool + " " + new java.util.TreeMap<>(arguments) + " → tool error" + (message != null ? " \"" + message + "\"" : "");
    }

    @Override
    public Observation observe(Side side) {
        Calls.Timed t = Calls.call(side, tool, arguments);
        if (t.failure() != null) {
            return t.failure();
        }
        Facts f = new Facts(t.answer().error(), Calls.firstLine(t.answer().text()));
        return Observation.of(f.error() ? "error \"" + Calls.cut(f.text(), 28) + "\"" : "answered", f, t.millis());
    }

    @Override
    public String problem(Observation own, Observation baseline) {
        if (own.failed()) {
            return own.failure();
        }
        Facts f = (Facts) own.facts();
        if (!f.error()) {
            return "the call was answered; expected a tool error";
        }
        if (message != null && !f.text().toLowerCase(Locale.ROOT).contains(message.toLowerCase(Locale.ROOT))) {
            return "the error does not say \"" + message + "\": " + f.text();
        }
        return null;
    }

    @Override
    public String difference(Observation baseline, Observation candidate) {
        if (baseline.failed() || candidate.failed()) {
            return Check.shownDifference(baseline, candidate, null, null);
        }
        Facts b = (Facts) baseline.facts();
        Facts c = (Facts) candidate.facts();
        if (b.error() != c.error()) {
            return baseline.shown() + " → " + candidate.shown();
        }
        return b.text().equals(c.text()) ? null : "message \"" + Calls.cut(b.text(), 30) + "\" → \"" + Calls.cut(c.text(), 30) + "\"";
    }
}
