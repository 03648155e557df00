package io.ragsearch.verify;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** Judging and comparing lists of names (projects, document ids): order does not matter. */
final class Names {

    private Names() {
    }

    /** Why {@code got} is not what was expected (exact names and/or count), or null. */
    static String problem(List<String> got, List<String> expected, Integer count, String what) {
        List<String> problems = new ArrayList<>();
        if (expected != null) {
            String d = delta(expected, got);
            if (d != null) {
                problems.add(d);
            }
        }
        if (count != null && got.size() != count) {
            problems.add(got.size() + " " + what + ", expected " + count);
        }
        return problems.isEmpty() ? null : String.join("; ", problems);
    }

    /** "missing a, b; unexpected c" from {@code from} to {@code to}, or null when the sets are equal. */
    static String delta(List<String> from, List<String> to) {
        TreeSet<String> missing = new TreeSet<>(from);
        missing.removeAll(to);
        TreeSet<String> extra = new TreeSet<>(to);
        extra.removeAll(from);
        List<String> parts = new ArrayList<>();
        if (!missing.isEmpty()) {
            parts.add("missing " + String.join(", ", missing));
        }
        if (!extra.isEmpty()) {
            parts.add("unexpected " + String.join(", ", extra));
        }
        return parts.isEmpty() ? null : String.join("; ", parts);
    }

    /** The difference of two servers' lists, "− a, + b", or null. */
    static String difference(List<String> baseline, List<String> candidate) {
        TreeSet<String> gone = new TreeSet<>(baseline);
        gone.removeAll(candidate);
        TreeSet<String> added = new TreeSet<>(candidate);
        added.removeAll(baseline);
        List<String> parts = new ArrayList<>();
        gone.forEach(n -> parts.add("−" + n));
        added.forEach(n -> parts.add("+" + n));
        return parts.isEmpty() ? null : baseline.size() + " → " + candidate.size() + " (" + String.join(", ", parts) + ")";
    }
}
