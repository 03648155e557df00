package io.ragsearch.mcp;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import reactor.core.publisher.Mono;

/**
 * The one place a tool call is decided, whatever protocol revision carried it: which tools
 * exist, what an unknown name or a bogus list cursor gets, argument checking against the input
 * schema, counting every call (also the refused ones) and running the body on our bounded pool.
 * Both revisions' adapters ({@link LegacyTools}, {@link ModernTools}) and the transport guard
 * ask it, so their answers cannot drift apart.
 */
public final class ToolCatalog {

    /** The label a call to a tool that does not exist is counted under: the name itself is the caller's. */
    static final String UNKNOWN_TOOL_LABEL = "unknown";

    private final Map<String, ToolDefinition> tools = new LinkedHashMap<>();
    private final ToolExecutor executor;
    private final JsonSchemaValidator validator;

    public ToolCatalog(List<ToolDefinition> definitions, ToolExecutor executor) {
        definitions.forEach(d -> tools.put(d.name(), d));
        this.executor = executor;
        this.validator = McpJsonDefaults.getSchemaValidator();
    }

    public List<ToolDefinition> definitions() {
        return List.copyOf(tools.values());
    }

    public List<String> names() {
        return List.copyOf(tools.keySet());
    }

    public Optional<ToolDefinition> find(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    /** The JSON-RPC error message for a tool that does not exist; the call is counted. */
    public String unknownTool(String name) {
        executor.count(UNKNOWN_TOOL_LABEL, "unknown_tool");
        return "unknown tool " + quoted(name) + "; this server's tools: " + String.join(", ", tools.keySet());
    }

    /**
     * Every tool fits on one page, so this server hands out no cursors: any cursor a client
     * sends is one it did not get from us. Empty when the cursor is absent.
     */
    public static Optional<String> badCursor(Object cursor) {
        if (cursor == null) {
            return Optional.empty();
        }
        return Optional.of("invalid cursor " + (cursor instanceof String s ? quoted(s) : "of type " + cursor.getClass().getSimpleName())
                + ": this server lists every tool on one page and hands out no cursors; call tools/list without one");
    }

    /**
     * Checks the arguments against the tool's input schema, then runs it on the tool pool, or in
     * the rerank lane when the tool says this call reranks.
     */
    public Mono<ToolOutcome> call(ToolDefinition tool, Map<String, Object> arguments) {
        Map<String, Object> args = arguments == null ? Map.of() : arguments;
        Optional<String> wrong = ArgumentRules.problem(tool.inputSchema(), args);
        if (wrong.isPresent()) {
            executor.count(tool.name(), "invalid");
            return Mono.just(ToolOutcome.error("invalid arguments for tool " + quoted(tool.name()) + ": " + wrong.get()));
        }
        JsonSchemaValidator.ValidationResponse check = validator.validate(tool.inputSchema(), args);
        if (!check.valid()) {
            executor.count(tool.name(), "invalid");
            return Mono.just(ToolOutcome.error("invalid arguments for tool " + quoted(tool.name()) + ": " + check.errorMessage()));
        }
        return executor.submit(tool.name(), tool.reranks().test(args), () -> tool.body().apply(args));
    }

    static String quoted(String s) {
        String cut = s.length() <= 60 ? s : s.substring(0, 60) + "…";
        return "'" + cut.replaceAll("\\p{Cntrl}", "?") + "'";
    }
}
