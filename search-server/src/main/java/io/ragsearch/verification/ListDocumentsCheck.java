package io.ragsearch.verification;

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
    public Observation observe(Side side) {
        return NameLists.listed(side, "list_documents", Map.of("project", project), "documents", "id", "documents");
    }

    @Override
    public String problem(Observation own, Observation baseline) {
        return NameLists.problem(own, names, count, "documents");
    }

    @Override
    public String difference(Observation baseline, Observation candidate) {
        return NameLists.difference(baseline, candidate);
    }
}
