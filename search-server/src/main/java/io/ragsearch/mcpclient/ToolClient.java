package io.ragsearch.mcpclient;

import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.List;
import java.util.Map;

/**
 * A server's tools as a caller asks them: over HTTP ({@link McpToolClient}) or, for a server's
 * verification of itself in mode jwt, in process ({@code io.ragsearch.mcp.InProcessToolClient}).
 * Failures are {@link McpClientException}s whose message a person can act on.
 */
public interface ToolClient extends AutoCloseable {

    /** Calls a tool; a tool error is an answer ({@link ToolAnswer#error()}), a failure to answer an exception. */
    ToolAnswer call(String tool, Map<String, Object> arguments);

    /** Every tool the server lists. */
    List<Tool> tools();

    @Override
    void close();
}
