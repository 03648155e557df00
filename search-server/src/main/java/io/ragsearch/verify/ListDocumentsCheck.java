package io.ragsearch.verify;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@code list_documents} of a project: exactly these document ids and/or this many documents. */
public record ListDocumentsCheck(String id, String project, List<String> names, Integer count) implements Check {

    public ListDocumentsCheck {
        names = names == null ? null : List.copyOf(names);
    }

    @Override
    public String kind() {
        return "list_documents";
    }

    @Override
    public String describe() {
        return "list_documents " + project + " → " + (names != null ? String.join(", ", names) : count + " documents");
    }

    @Override
    @SuppressWarnings("unchecked")
    public Observation observe(Side side) {
        Calls.Timed t = Calls.call(side, "list_documents", Map.of("project", project));
        if (t.failure() != null) {
            return t.failure();
        }
        if (t.answer().error()) {
            return Calls.unexpectedError(t);
        }
        try {
            List<String> got = new ArrayList<>();
            for (Object o : (List<Object>) t.answer().structured().get("documents")) {
                got.add((String) ((Map<String, Object>) o).get("id"));
            }
            return Observation.of(got.size() + " documents", List.copyOf(got), t.millis());
        } catch (RuntimeException e) {
            return Observation.failed("bad answer", "the list_documents answer does not have the declared shape", t.millis());
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public String problem(Observation own, Observation baseline) {
        return own.failed() ? own.failure() : Names.problem((List<String>) own.facts(), names, count, "documents");
    }

    @Override
    @SuppressWarnings("unchecked")
    public String difference(Observation baseline, Observation candidate) {
        if (baseline.failed() || candidate.failed()) {
            return Check.shownDifference(baseline, candidate, null, null);
        }
        return Names.difference((List<String>) baseline.facts(), (List<String>) candidate.facts());
    }
}
