package io.ragsearch.mcp;

import io.ragsearch.auth.Caller;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * Collects a tool definition's parts in the order the code reads best. Every tool of this server
 * is read-only: its annotations ({@link ToolDefinition.Hints#readOnly}) carry the tool's own title.
 */
final class ToolSpec {
    private final String name;
    private final String title;
    private String description;
    private Map<String, Object> input;
    private Map<String, Object> output;
    private Predicate<Map<String, Object>> reranks = ToolDefinition.NEVER_RERANKS;

    ToolSpec(String name, String title) {
        this.name = name;
        this.title = title;
    }

    ToolSpec description(String d) {
        description = d;
        return this;
    }

    ToolSpec inputSchema(Map<String, Object> s) {
        input = s;
        return this;
    }

    ToolSpec outputSchema(Map<String, Object> s) {
        output = s;
        return this;
    }

    /** Which calls run in the rerank lane (none unless said). */
    ToolSpec reranks(Predicate<Map<String, Object>> r) {
        reranks = r;
        return this;
    }

    ToolDefinition body(BiFunction<Map<String, Object>, Caller, ToolOutcome> body) {
        return new ToolDefinition(name, title, description, input, output, ToolDefinition.Hints.readOnly(title), body, reranks);
    }
}
