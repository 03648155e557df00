package io.ragsearch.mcp;

import io.modelcontextprotocol.common.McpTransportContext;
import io.ragsearch.telemetry.TraceContexts;
import jakarta.servlet.http.HttpServletRequest;
import java.util.HashMap;
import java.util.Map;

/**
 * Where a tool call came from, as its span records it: the JSON-RPC id, the protocol revision,
 * the request's {@code _meta} and, over HTTP, the trace headers.
 *
 * @param requestId       the JSON-RPC id (null: unknown)
 * @param protocolVersion the MCP revision (null: unknown)
 * @param http            carried by HTTP (else stdio)
 * @param meta            {@code params._meta} (null: none)
 * @param traceHeaders    {@code traceparent} / {@code tracestate} headers by lower-case name
 */
record ToolCallOrigin(Object requestId, String protocolVersion, boolean http, Map<String, Object> meta, Map<String, String> traceHeaders) {

    /** Transport-context keys our HTTP extractor fills (both SDK transports take it). */
    static final String HTTP_KEY = "io.ragsearch.mcp.http";
    static final String REQUEST_ID_KEY = "io.ragsearch.mcp.request-id";
    static final String VERSION_KEY = "io.ragsearch.mcp.protocol-version";

    /** A call nobody can trace back (in-process callers, tests). */
    static final ToolCallOrigin UNKNOWN = new ToolCallOrigin(null, null, false, null, Map.of());

    /**
     * What the SDK's servlet transports keep of an HTTP request for the handler: the trace
     * headers, the JSON-RPC id {@link TransportGuardFilter} read (the 2025 server's handler
     * does not see it) and the revision header.
     */
    static Map<String, Object> httpValues(HttpServletRequest request) {
        Map<String, Object> kept = new HashMap<>();
        kept.put(HTTP_KEY, Boolean.TRUE);
        for (String name : new String[] {TraceContexts.TRACEPARENT, TraceContexts.TRACESTATE}) {
            String value = request.getHeader(name);
            if (value != null) {
                kept.put(name, value);
            }
        }
        Object id = request.getAttribute(TransportGuardFilter.REQUEST_ID_ATTRIBUTE);
        if (id != null) {
            kept.put(REQUEST_ID_KEY, id);
        }
        String version = request.getHeader("MCP-Protocol-Version");
        if (version != null) {
            kept.put(VERSION_KEY, version);
        }
        return kept;
    }

    /** @param requestId the id when the SDK gives it (2026-07-28), else null: the transport's */
    static ToolCallOrigin of(McpTransportContext transport, Object requestId, String protocolVersion, Map<String, Object> meta) {
        if (transport == null) {
            return new ToolCallOrigin(requestId, protocolVersion, false, meta, Map.of());
        }
        Map<String, String> headers = new HashMap<>();
        for (String name : new String[] {TraceContexts.TRACEPARENT, TraceContexts.TRACESTATE}) {
            if (transport.get(name) instanceof String value) {
                headers.put(name, value);
            }
        }
        return new ToolCallOrigin(requestId != null ? requestId : transport.get(REQUEST_ID_KEY),
                protocolVersion != null ? protocolVersion : (String) transport.get(VERSION_KEY),
                Boolean.TRUE.equals(transport.get(HTTP_KEY)), meta, headers);
    }
}
