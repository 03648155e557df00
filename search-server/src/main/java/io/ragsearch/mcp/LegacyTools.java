package io.ragsearch.mcp;

import io.ragsearch.auth.Caller;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.util.List;

/**
 * The catalog's tools in the SDK's 2025-11-25 (stateless server) types. The SDK's own input
 * check is switched off where the server is built: {@link ToolCatalog#call} checks (and counts).
 * Unknown names and list cursors never reach this server: the transport guard answers them
 * from the catalog first (the SDK would answer a placeholder message and ignore a cursor).
 */
final class LegacyTools {

    private LegacyTools() {
    }

    static List<AsyncToolSpecification> specifications(ToolCatalog catalog) {
        return catalog.definitions().stream().map(d -> AsyncToolSpecification.builder()
                .tool(tool(d))
                .callHandler((context, request) -> catalog.call(d, request.arguments(),
                        ToolCallOrigin.of(context, null, null, request.meta()), caller(context.get(Caller.ATTRIBUTE))).map(LegacyTools::result))
                .build()).toList();
    }

    /** The caller the auth filter left in the transport context; none there (no auth): anyone. */
    static Caller caller(Object fromContext) {
        return fromContext instanceof Caller c ? c : Caller.ANYONE;
    }

    static Tool tool(ToolDefinition d) {
        ToolDefinition.Hints h = d.hints();
        return Tool.builder()
                .name(d.name())
                .title(d.title())
                .description(d.description())
                .inputSchema(d.inputSchema())
                .outputSchema(d.outputSchema())
                .annotations(new ToolAnnotations(h.title(), h.readOnly(), h.destructive(), h.idempotent(), h.openWorld(), null))
                .build();
    }

    static CallToolResult result(ToolOutcome o) {
        CallToolResult.Builder b = CallToolResult.builder().content(List.of(new TextContent(o.text()))).isError(o.isError());
        if (o.structured() != null) {
            b.structuredContent(o.structured());
        }
        return b.build();
    }
}
