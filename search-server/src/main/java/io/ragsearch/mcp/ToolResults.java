package io.ragsearch.mcp;

/** Tool results: text for people and models, structuredContent for programs. */
final class ToolResults {

    private ToolResults() {
    }

    static ToolOutcome success(String text, Object structured) {
        return ToolOutcome.success(text, structured);
    }

    static ToolOutcome error(String message) {
        return ToolOutcome.error(message);
    }
}
