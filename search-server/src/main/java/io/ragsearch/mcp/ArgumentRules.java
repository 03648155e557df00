package io.ragsearch.mcp;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks tool arguments against the simple schemas this server declares (closed objects of
 * strings and bounded integers) before the SDK's validator sees them: its messages name library
 * internals ({@code top_k: 1e308} came back as a Jackson conversion error), ours say what to
 * send. Pure: the schema and the arguments in, the first problem out.
 */
final class ArgumentRules {

    /** How much of a caller's value a message repeats. */
    private static final int SHOWN_CHARS = 40;

    private ArgumentRules() {
    }

    @SuppressWarnings("unchecked")
    static Optional<String> problem(Map<String, Object> schema, Map<String, Object> args) {
        Map<String, Object> properties = (Map<String, Object>) schema.getOrDefault("properties", Map.of());
        for (String name : args.keySet()) {
            if (!properties.containsKey(name)) {
                return Optional.of("unknown argument " + ToolCatalog.quoted(name) + "; the arguments are: "
                        + String.join(", ", properties.keySet()));
            }
        }
        for (String name : (List<String>) schema.getOrDefault("required", List.of())) {
            if (args.get(name) == null) {
                return Optional.of("argument '" + name + "' is required");
            }
        }
        for (Map.Entry<String, Object> p : properties.entrySet()) {
            Object value = args.get(p.getKey());
            if (value == null && !args.containsKey(p.getKey())) {
                continue;
            }
            Optional<String> wrong = wrongValue(p.getKey(), (Map<String, Object>) p.getValue(), value);
            if (wrong.isPresent()) {
                return wrong;
            }
        }
        return Optional.empty();
    }

    private static Optional<String> wrongValue(String name, Map<String, Object> property, Object value) {
        Object type = property.get("type");
        if ("string".equals(type) && !(value instanceof String)) {
            return Optional.of("argument '" + name + "' must be a string, got " + shown(value));
        }
        if ("integer".equals(type)) {
            long min = ((Number) property.get("minimum")).longValue();
            long max = ((Number) property.get("maximum")).longValue();
            if (!(value instanceof Number n) || !withinWhole(n, min, max)) {
                return Optional.of("argument '" + name + "' must be an integer " + min + "–" + max + ", got " + shown(value));
            }
        }
        return Optional.empty();
    }

    /** A whole number in [min, max], whatever Number type the JSON reader chose (1e308 is a double, 10^30 a BigInteger). */
    private static boolean withinWhole(Number n, long min, long max) {
        BigDecimal d;
        try {
            d = new BigDecimal(n.toString());
        } catch (NumberFormatException e) {
            return false; // NaN or an infinity
        }
        return d.stripTrailingZeros().scale() <= 0 && d.compareTo(BigDecimal.valueOf(min)) >= 0 && d.compareTo(BigDecimal.valueOf(max)) <= 0;
    }

    private static String shown(Object value) {
        String s = value == null ? "null" : value instanceof String str ? "a string" + (str.length() <= SHOWN_CHARS ? " '"
                + str.replaceAll("\\p{Cntrl}", "?") + "'" : "") : value instanceof Number ? value.toString()
                : value instanceof Boolean ? value.toString() : value instanceof Map ? "an object" : value instanceof List ? "an array"
                : "a value of another kind";
        return s.length() <= SHOWN_CHARS ? s : s.substring(0, SHOWN_CHARS) + "…";
    }
}
