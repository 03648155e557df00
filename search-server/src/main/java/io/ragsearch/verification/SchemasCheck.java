package io.ragsearch.verification;

import io.ragsearch.mcpclient.McpClientException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The tool list and every tool's input and output schema. Always: well formed (named tools with
 * object schemas) and, when {@code tools} is given, exactly those names. With {@code file}: equal
 * to the stored list. Against a baseline: equal to the baseline's — the point of the check, since a
 * changed schema breaks agents that were written against the running version.
 */
public record SchemasCheck(String id, List<String> tools, Path file, List<Map<String, Object>> stored) implements Check {

    public SchemasCheck {
        tools = tools == null ? null : List.copyOf(tools);
    }

    /** {@code file} is read now, so that a missing or broken file is a problem of the checks file, before anything runs. */
    static SchemasCheck of(String id, List<String> tools, Path file) {
        return new SchemasCheck(id, tools, file, file == null ? null : ToolSchemas.read(file));
    }

    @Override
    public String kind() {
        return "schemas";
    }

    @Override
    public String describe() {
        return "tool list and schemas" + (tools != null ? ": " + String.join(", ", tools) : "")
                + (file != null ? ", equal to " + file.getFileName() : "") + ", equal to the baseline's when there is one";
    }

    @Override
    public Observation observe(Side side) {
        if (side.client() == null) {
            return Calls.unreachable(side);
        }
        long t0 = System.nanoTime();
        try {
            List<Map<String, Object>> listed = ToolSchemas.of(side.client().tools());
            return Observation.of(listed.size() + " tools", listed, Calls.millisSince(t0));
        } catch (McpClientException e) {
            return Observation.failed("call failed", e.getMessage(), Calls.millisSince(t0));
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public String problem(Observation own, Observation baseline) {
        if (own.failed()) {
            return own.failure();
        }
        List<Map<String, Object>> listed = (List<Map<String, Object>>) own.facts();
        List<String> problems = ToolSchemas.problems(listed);
        if (!problems.isEmpty()) {
            return String.join("; ", problems);
        }
        List<String> names = listed.stream().map(t -> (String) t.get("name")).toList();
        if (tools != null) {
            String d = NameLists.delta(tools, names);
            if (d != null) {
                return "tools: " + d;
            }
        }
        if (stored != null) {
            String d = describe(stored, listed);
            if (d != null) {
                return "differs from " + file.getFileName() + " at " + d;
            }
        }
        if (baseline != null) {
            if (baseline.failed()) {
                return "no baseline schemas to compare with: " + baseline.failure();
            }
            String d = describe((List<Map<String, Object>>) baseline.facts(), listed);
            if (d != null) {
                return "differs from the baseline: " + d;
            }
        }
        return null;
    }

    @Override
    @SuppressWarnings("unchecked")
    public String difference(Observation baseline, Observation candidate) {
        if (baseline.failed() || candidate.failed()) {
            return Check.shownDifference(baseline, candidate, null, null);
        }
        return describe((List<Map<String, Object>>) baseline.facts(), (List<Map<String, Object>>) candidate.facts());
    }

    /** By tool name: tools gone or added, else the first differing place ("search.inputSchema.… : 20 → 10"). */
    private static String describe(List<Map<String, Object>> baseline, List<Map<String, Object>> candidate) {
        List<String> b = baseline.stream().map(t -> String.valueOf(t.get("name"))).toList();
        List<String> c = candidate.stream().map(t -> String.valueOf(t.get("name"))).toList();
        String names = NameLists.difference(b, c);
        if (names != null) {
            return "tools " + names;
        }
        for (int i = 0; i < baseline.size(); i++) {
            String d = JsonDiff.first(baseline.get(i), candidate.get(i), b.get(i));
            if (d != null) {
                return d;
            }
        }
        return null;
    }
}
