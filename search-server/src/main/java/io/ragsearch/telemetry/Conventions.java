package io.ragsearch.telemetry;

import io.opentelemetry.api.common.AttributeKey;

/**
 * The span attribute names the server writes. Where an OpenTelemetry semantic convention covers
 * a value, its name is used (the conventions' own Java constants are in an alpha artifact, which
 * no production jar of ours may carry, so the names are written here); values of ours are under
 * {@code ragsearch.}. docs/telemetry.md lists where each one appears.
 */
public final class Conventions {

    // Semantic conventions for MCP ("Semantic conventions for Model Context Protocol (MCP)").
    public static final AttributeKey<String> MCP_METHOD_NAME = AttributeKey.stringKey("mcp.method.name");
    public static final AttributeKey<String> MCP_PROTOCOL_VERSION = AttributeKey.stringKey("mcp.protocol.version");
    public static final AttributeKey<String> JSONRPC_REQUEST_ID = AttributeKey.stringKey("jsonrpc.request.id");
    // Semantic conventions for generative AI: the tool execution and embeddings operations.
    public static final AttributeKey<String> GEN_AI_OPERATION_NAME = AttributeKey.stringKey("gen_ai.operation.name");
    public static final AttributeKey<String> GEN_AI_TOOL_NAME = AttributeKey.stringKey("gen_ai.tool.name");
    public static final AttributeKey<String> GEN_AI_REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    // General attributes (error, network).
    public static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    public static final AttributeKey<String> NETWORK_TRANSPORT = AttributeKey.stringKey("network.transport");
    public static final AttributeKey<String> NETWORK_PROTOCOL_NAME = AttributeKey.stringKey("network.protocol.name");

    /** The MCP conventions' {@code error.type} of a call answered with {@code isError: true}. */
    public static final String TOOL_ERROR = "tool_error";

    // Ours: the search and its stages.
    public static final AttributeKey<String> PROJECT = AttributeKey.stringKey("ragsearch.project");
    public static final AttributeKey<String> RETRIEVAL_MODE = AttributeKey.stringKey("ragsearch.retrieval.mode");
    public static final AttributeKey<Long> TOP_K = AttributeKey.longKey("ragsearch.top_k");
    public static final AttributeKey<Long> CANDIDATES = AttributeKey.longKey("ragsearch.candidates");
    public static final AttributeKey<Long> HITS = AttributeKey.longKey("ragsearch.hits");
    public static final AttributeKey<Boolean> GATE_PASSED = AttributeKey.booleanKey("ragsearch.gate.passed");
    public static final AttributeKey<Double> GATE_BEST = AttributeKey.doubleKey("ragsearch.gate.best_relevance");
    public static final AttributeKey<String> RERANKER = AttributeKey.stringKey("ragsearch.reranker");
    public static final AttributeKey<Long> RERANK_PAIRS = AttributeKey.longKey("ragsearch.rerank.pairs");
    public static final AttributeKey<Boolean> RERANK_ACQUIRED = AttributeKey.booleanKey("ragsearch.rerank.acquired");

    private Conventions() {
    }
}
