package io.ragsearch.mcp;

/**
 * What a tool call produced, independent of the protocol revision that carries it: text for
 * people and models, structured content for programs, and whether it is a tool error.
 */
public record ToolOutcome(String text, Object structured, boolean isError) {

    static ToolOutcome success(String text, Object structured) {
        return new ToolOutcome(text, structured, false);
    }

    static ToolOutcome error(String message) {
        return new ToolOutcome(message, null, true);
    }
}
