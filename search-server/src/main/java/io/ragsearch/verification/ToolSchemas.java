package io.ragsearch.verification;

import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.ragsearch.eval.QuestionFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * A server's tools as compared by the {@code schemas} check: name, input schema, output schema,
 * sorted by name. Titles and descriptions are prose for models and are not compared. Stored as
 * JSON (a list of {name, inputSchema, outputSchema}) by {@code verify --save-schemas}.
 */
final class ToolSchemas {

    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private ToolSchemas() {
    }

    static List<Map<String, Object>> of(List<Tool> tools) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Tool t : tools) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", t.name());
            m.put("inputSchema", t.inputSchema());
            m.put("outputSchema", t.outputSchema());
            out.add(m);
        }
        out.sort(Comparator.comparing(m -> String.valueOf(m.get("name"))));
        return out;
    }

    /** Every way a tool list is not well formed: a tool without a name, an input or output schema that is not an object schema. */
    static List<String> problems(List<Map<String, Object>> tools) {
        List<String> problems = new ArrayList<>();
        if (tools.isEmpty()) {
            problems.add("the server lists no tools");
        }
        for (Map<String, Object> t : tools) {
            Object name = t.get("name");
            if (!(name instanceof String s) || s.isBlank()) {
                problems.add("a tool has no name");
                continue;
            }
            for (String schema : List.of("inputSchema", "outputSchema")) {
                if (!(t.get(schema) instanceof Map<?, ?> m) || !"object".equals(m.get("type")) || !(m.get("properties") instanceof Map)) {
                    problems.add(name + ": " + schema + " is not an object schema with properties");
                }
            }
        }
        return problems;
    }

    static void write(List<Map<String, Object>> tools, Path file) {
        try {
            Files.writeString(file, JSON.writeValueAsString(tools) + "\n");
        } catch (IOException e) {
            throw new VerifyException("cannot write " + file + ": " + e.getMessage());
        }
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> read(Path file) {
        String text = QuestionFile.readText(file, "schemas file");
        try {
            Object v = JSON.readValue(text, Object.class);
            if (!(v instanceof List<?> l) || !l.stream().allMatch(e -> e instanceof Map)) {
                throw new VerifyException("schemas file " + file + " is not a JSON list of tools (as verify --save-schemas writes)");
            }
            List<Map<String, Object>> tools = new ArrayList<>((List<Map<String, Object>>) v);
            tools.sort(Comparator.comparing(m -> String.valueOf(m.get("name"))));
            return tools;
        } catch (JacksonException e) {
            throw new VerifyException("schemas file " + file + " is not valid JSON: " + e.getOriginalMessage());
        }
    }
}
