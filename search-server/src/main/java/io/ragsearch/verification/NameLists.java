package io.ragsearch.verification;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** Judging and comparing lists of names (projects, document ids): order does not matter. */
final class NameLists {

    private NameLists() {
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

    /** One listing tool's answer as its names: {@code tool} called, the {@code listKey} items' {@code idKey} values. */
    @SuppressWarnings("unchecked")
    static Observation listed(Side side, String tool, Map<String, Object> args, String listKey, String idKey, String noun) {
        List<String> got = new ArrayList<>();
        double millis = 0;
        Map<String, Object> pageArgs = args;
        // A paged listing (list_documents) is followed to its end; a server without paging answers one page.
        for (int page = 0; page < MAX_PAGES; page++) {
            Calls.Timed t = Calls.call(side, tool, pageArgs);
            if (t.failure() != null) {
                return t.failure();
            }
            if (t.answer().error()) {
                return Calls.unexpectedError(t);
            }
            millis += t.millis();
            Object next;
            try {
                for (Object o : (List<Object>) t.answer().structured().get(listKey)) {
                    got.add((String) ((Map<String, Object>) o).get(idKey));
                }
                next = t.answer().structured().get("nextCursor");
            } catch (RuntimeException e) {
                return Observation.failed("bad answer", "the " + tool + " answer does not have the declared shape", t.millis());
            }
            if (!(next instanceof String cursor)) {
                return Observation.of(got.size() + " " + noun, List.copyOf(got), millis);
            }
            pageArgs = new java.util.HashMap<>(args);
            pageArgs.put("cursor", cursor);
        }
        return Observation.failed("bad answer", "the " + tool + " answer still had a next page after " + MAX_PAGES + " pages", millis);
    }

    /** 1000 pages of 100 documents: far past any corpus, short of a server that hands out cursors for ever. */
    private static final int MAX_PAGES = 1000;

    /** A listing check's verdict on its own observation. */
    @SuppressWarnings("unchecked")
    static String problem(Observation own, List<String> expected, Integer count, String noun) {
        return own.failed() ? own.failure() : problem((List<String>) own.facts(), expected, count, noun);
    }

    /** What changed between two listings (or the failure shown when one failed). */
    @SuppressWarnings("unchecked")
    static String difference(Observation baseline, Observation candidate) {
        if (baseline.failed() || candidate.failed()) {
            return Check.shownDifference(baseline, candidate, null, null);
        }
        return difference((List<String>) baseline.facts(), (List<String>) candidate.facts());
    }
}
