package io.ragsearch.verification;

import java.util.List;
import java.util.Map;

/** {@code list_projects}: exactly these project names and/or this many projects. */
public record ListProjectsCheck(String id, List<String> names, Integer count) implements Check {

    public ListProjectsCheck {
        names = names == null ? null : List.copyOf(names);
    }

    @Override
    public String kind() {
        return "list_projects";
    }

    @Override
    public String describe() {
        return "list_projects → " + (names != null ? String.join(", ", names) : count + " projects");
    }

    @Override
    public Observation observe(Side side) {
        return NameLists.listed(side, "list_projects", Map.of(), "projects", "name", "projects");
    }

    @Override
    public String problem(Observation own, Observation baseline) {
        return NameLists.problem(own, names, count, "projects");
    }

    @Override
    public String difference(Observation baseline, Observation candidate) {
        return NameLists.difference(baseline, candidate);
    }
}
