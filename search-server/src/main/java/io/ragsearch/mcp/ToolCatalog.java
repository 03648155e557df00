package io.ragsearch.mcp;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.ragsearch.auth.Caller;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.ragsearch.telemetry.Conventions;
import io.ragsearch.telemetry.Telemetry;
import io.ragsearch.telemetry.TraceContexts;
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
 * ask it, so their answers cannot drift apart. Each call is a span ({@link #call(ToolDefinition, Map, ToolCallOrigin)}).
 */
public final class ToolCatalog {

    /** The label a call to a tool that does not exist is counted under: the name itself is the caller's. */
    static final String UNKNOWN_TOOL_LABEL = "unknown";

    private final Map<String, ToolDefinition> tools = new LinkedHashMap<>();
    private final ToolExecutor executor;
    private final JsonSchemaValidator validator;
    private final Tracer tracer;

    public ToolCatalog(List<ToolDefinition> definitions, ToolExecutor executor) {
        this(definitions, executor, Telemetry.OFF_TRACER);
    }

    public ToolCatalog(List<ToolDefinition> definitions, ToolExecutor executor, Tracer tracer) {
        definitions.forEach(d -> tools.put(d.name(), d));
        this.executor = executor;
        this.validator = McpJsonDefaults.getSchemaValidator();
        this.tracer = tracer;
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
        return call(tool, arguments, ToolCallOrigin.UNKNOWN, Caller.ANYONE);
    }

    /** As {@link #call(ToolDefinition, Map)}, for this caller (see {@link #call(ToolDefinition, Map, ToolCallOrigin, Caller)}). */
    public Mono<ToolOutcome> call(ToolDefinition tool, Map<String, Object> arguments, Caller caller) {
        return call(tool, arguments, ToolCallOrigin.UNKNOWN, caller);
    }

    /**
     * The call for this caller, in a span of the MCP semantic conventions ("tools/call {tool}",
     * kind SERVER) that continues the trace {@code origin} carries ({@link TraceContexts}) and is
     * current on the tool thread, so the search's stages become its children. A call answered with
     * {@code isError} ends with {@code error.type} {@code tool_error}. A project outside the caller's scope
     * never takes the rerank lane: its answer is the unknown-project one, and a "busy" instead
     * would tell that the project exists.
     */
    Mono<ToolOutcome> call(ToolDefinition tool, Map<String, Object> arguments, ToolCallOrigin origin, Caller caller) {
        return Mono.defer(() -> traced(tool, arguments, origin, caller)); // a span only for a call that is made
    }

    private Mono<ToolOutcome> traced(ToolDefinition tool, Map<String, Object> arguments, ToolCallOrigin origin, Caller caller) {
        Context parent = TraceContexts.parent(origin.meta(), origin.traceHeaders());
        Span span = tracer.spanBuilder("tools/call " + tool.name())
                .setParent(parent)
                .setSpanKind(SpanKind.SERVER)
                .setAttribute(Conventions.MCP_METHOD_NAME, "tools/call")
                .setAttribute(Conventions.GEN_AI_OPERATION_NAME, "execute_tool")
                .setAttribute(Conventions.GEN_AI_TOOL_NAME, tool.name())
                .startSpan();
        if (span.isRecording()) {
            if (origin.requestId() != null) {
                span.setAttribute(Conventions.JSONRPC_REQUEST_ID, String.valueOf(origin.requestId()));
            }
            if (origin.protocolVersion() != null) {
                span.setAttribute(Conventions.MCP_PROTOCOL_VERSION, origin.protocolVersion());
            }
            span.setAttribute(Conventions.NETWORK_TRANSPORT, origin.http() ? "tcp" : "pipe");
            if (origin.http()) {
                span.setAttribute(Conventions.NETWORK_PROTOCOL_NAME, "http");
            }
        }
        return checkedCall(tool, arguments, caller, parent.with(span))
                .doOnNext(outcome -> {
                    if (outcome.isError()) {
                        span.setAttribute(Conventions.ERROR_TYPE, Conventions.TOOL_ERROR);
                        span.setStatus(StatusCode.ERROR);
                    }
                })
                .doOnError(e -> {
                    span.setAttribute(Conventions.ERROR_TYPE, e.getClass().getName());
                    span.setStatus(StatusCode.ERROR);
                })
                .doFinally(signal -> span.end());
    }

    private Mono<ToolOutcome> checkedCall(ToolDefinition tool, Map<String, Object> arguments, Caller caller, Context traced) {
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
        boolean inScope = !(args.get("project") instanceof String project) || caller.scope().allows(project);
        return executor.submit(tool.name(), inScope && tool.reranks().test(args), traced.wrapSupplier(() -> tool.body().apply(args, caller)));
    }

    static String quoted(String s) {
        String cut = s.length() <= 60 ? s : s.substring(0, 60) + "…";
        return "'" + cut.replaceAll("\\p{Cntrl}", "?") + "'";
    }
}
