package io.ragsearch.mcp;

import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpAsyncResponse;
import io.modelcontextprotocol.modern.server.McpFeature;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import java.util.List;
import java.util.Map;
import java.util.Set;
import reactor.core.publisher.Mono;

/**
 * The catalog's tools for the 2026-07-28 revision, as a feature of the SDK's new server. It
 * replaces the SDK's {@code ToolsFeature} so that the answers are the catalog's: the same input
 * check and metrics as 2025-11-25, an unknown tool named with the ones that exist, a cursor we
 * never issued refused. Tool calls are not input-required: no request state is ever issued.
 */
final class ModernTools implements McpFeature {

    private final ToolCatalog catalog;
    private final List<McpSchema.Tool> listed;

    ModernTools(ToolCatalog catalog) {
        this.catalog = catalog;
        this.listed = catalog.definitions().stream().map(ModernTools::tool).toList();
    }

    @Override
    public Set<String> methods() {
        return Set.of("tools/list", "tools/call");
    }

    @Override
    public void capabilities(McpSchema.ServerCapabilities.Builder builder) {
        builder.tools(false);
    }

    @Override
    public Mono<? extends McpAsyncResponse<? extends McpSchema.Result>> handle(McpRequestContext ctx, Object params) {
        Map<?, ?> p = params instanceof Map<?, ?> m ? m : Map.of();
        if ("tools/list".equals(ctx.method())) {
            return ToolCatalog.badCursor(p.get("cursor"))
                    .<Mono<McpAsyncResponse<McpSchema.Result>>>map(message -> Mono.error(McpException.invalidParams(message)))
                    .orElseGet(() -> Mono.just(McpAsyncResponse.result(McpSchema.ListToolsResult.builder(listed).build())));
        }
        if (!(p.get("name") instanceof String name)) {
            return Mono.error(McpException.invalidParams("tools/call needs params with a string \"name\""));
        }
        Object rawArguments = p.get("arguments");
        if (rawArguments != null && !(rawArguments instanceof Map)) {
            return Mono.error(McpException.invalidParams("tools/call \"arguments\" must be an object"));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> arguments = (Map<String, Object>) rawArguments;
        return catalog.find(name)
                .map(tool -> catalog.call(tool, arguments, origin(ctx, p), caller(ctx)).map(o -> McpAsyncResponse.<McpSchema.Result>result(result(o))))
                .orElseGet(() -> Mono.error(McpException.invalidParams(catalog.unknownTool(name))));
    }

    /** The call's origin: the SDK's request context, and {@code _meta} read from the params when the SDK did not. */
    @SuppressWarnings("unchecked")
    private static ToolCallOrigin origin(McpRequestContext ctx, Map<?, ?> params) {
        Map<String, Object> meta = ctx.meta() != null && !ctx.meta().isEmpty() ? ctx.meta()
                : params.get("_meta") instanceof Map<?, ?> m ? (Map<String, Object>) m : null;
        return ToolCallOrigin.of(ctx.transportContext(), ctx.requestId(), ctx.protocolVersion(), meta);
    }

    private static io.ragsearch.auth.Caller caller(McpRequestContext ctx) {
        return LegacyTools.caller(ctx.transportContext() == null ? null : ctx.transportContext().get(io.ragsearch.auth.Caller.ATTRIBUTE));
    }

    static McpSchema.Tool tool(ToolDefinition d) {
        ToolDefinition.Hints h = d.hints();
        return McpSchema.Tool.builder(d.name(), d.inputSchema())
                .title(d.title())
                .description(d.description())
                .outputSchema(d.outputSchema())
                .annotations(new McpSchema.ToolAnnotations(h.title(), h.readOnly(), h.destructive(), h.idempotent(), h.openWorld()))
                .build();
    }

    static McpSchema.CallToolResult result(ToolOutcome o) {
        McpSchema.CallToolResult.Builder b = McpSchema.CallToolResult.builder()
                .addContent(McpSchema.TextContent.builder(o.text()).build())
                .isError(o.isError());
        if (o.structured() != null) {
            b.structuredContent(o.structured());
        }
        return b.build();
    }
}
