package io.ragsearch.search;

import java.util.List;

/** Lists names for error messages: all of them when few, the first ones and a count when many. */
public final class MessageText {

    /** An error message has to stay readable for a person and an agent's context window. */
    private static final int MAX_LISTED = 40;

    /** A caller's value echoed in an error is cut to this: a 100 KB document id must not come back whole. */
    static final int MAX_ECHOED_CHARS = 120;

    private MessageText() {
    }

    /** {@code value} in quotes, cut when long, so an error message stays small whatever was sent. */
    public static String quoted(String value) {
        if (value.length() <= MAX_ECHOED_CHARS) {
            return "'" + value + "'";
        }
        return "'" + value.substring(0, MAX_ECHOED_CHARS) + "…' (" + value.length() + " characters)";
    }

    public static String listed(List<String> names) {
        if (names.isEmpty()) {
            return "(none)";
        }
        if (names.size() <= MAX_LISTED) {
            return String.join(", ", names);
        }
        return String.join(", ", names.subList(0, MAX_LISTED)) + ", … (" + names.size() + " in all)";
    }
}
