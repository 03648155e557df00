package io.ragsearch.mcp;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Small builders for the JSON Schemas (2020-12) of tool inputs and outputs. Every map keeps its
 * insertion order: {@code tools/list} is then the same bytes from one start to the next (Map.of's
 * order changes with each JVM), which clients that cache or diff the tool list rely on.
 */
final class Schemas {

    private Schemas() {
    }

    static Map<String, Object> object(Map<String, Object> properties, List<String> required) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("type", "object");
        s.put("properties", properties);
        s.put("required", required);
        return s;
    }

    /** Inputs are closed: an unknown argument is a caller's mistake worth reporting. */
    static Map<String, Object> closedObject(Map<String, Object> properties, List<String> required) {
        Map<String, Object> s = object(properties, required);
        s.put("additionalProperties", false);
        return s;
    }

    static Map<String, Object> string(String description) {
        return props("type", "string", "description", description);
    }

    static Map<String, Object> integer(String description, int min, int max) {
        return props("type", "integer", "description", description, "minimum", min, "maximum", max);
    }

    static Map<String, Object> number(String description) {
        return props("type", "number", "description", description);
    }

    static Map<String, Object> bool(String description) {
        return props("type", "boolean", "description", description);
    }

    static Map<String, Object> array(Map<String, Object> items) {
        return props("type", "array", "items", items);
    }

    static Map<String, Object> props(Object... keyValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put((String) keyValues[i], keyValues[i + 1]);
        }
        return m;
    }
}
