package io.ragsearch.search;

import java.util.List;

/** Lists names for error messages: all of them when few, the first ones and a count when many. */
public final class Names {

    /** An error message has to stay readable for a person and an agent's context window. */
    private static final int MAX_LISTED = 40;

    private Names() {
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
