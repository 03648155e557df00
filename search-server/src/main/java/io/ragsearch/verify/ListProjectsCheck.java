package io.ragsearch.verify;

import java.util.ArrayList;
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
    @SuppressWarnings("unchecked")
    public Observation observe(Side side) {
        Calls.Timed t = Calls.call(side, "list_projects", Map.of());
        if (t.failure() != null) {
            return t.failure();
        }
        if (t.answer().error()) {
            return Calls.unexpectedError(t);
        }
        try {
            List<String> got = new ArrayList<>();
            for (Object o : (List<Object>) t.answer().structured().get("projects")) {
                got.add((String) ((Map<String, Object>) o).get("name"));
            }
            return Observation.of(got.size() + " projects", List.copyOf(got), t.millis());
        } catch (RuntimeException e) {
            return Observation.failed("bad answer", "the list_projects answer does not have the declared shape", t.millis());
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public String problem(Observation own, Observation baseline) {
        return own.failed() ? own.failure() : Names.problem((List<String>) own.facts(), names, count, "projects");
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
