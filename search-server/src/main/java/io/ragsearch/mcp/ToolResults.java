package io.ragsearch.mcp;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.util.List;

/** Tool results: text for people and models, structuredContent for programs. */
final class ToolResults {

    private ToolResults() {
    }

    static CallToolResult success(String text, Object structured) {
        return CallToolResult.builder()
                .content(List.of(new TextContent(text)))
                .structuredContent(structured)
                .isError(false)
                .build();
    }

    static CallToolResult error(String message) {
        return CallToolResult.builder()
                .content(List.of(new TextContent(message)))
                .isError(true)
                .build();
    }
}
