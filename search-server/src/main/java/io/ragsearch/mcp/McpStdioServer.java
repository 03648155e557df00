package io.ragsearch.mcp;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.modern.server.transport.StdioMcpTransport;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;

/**
 * MCP 2026-07-28 over standard input and output, for a desktop agent that starts the server
 * itself: the same catalog (tools, argument check, answers, counting, the bounded tool pool) as
 * the HTTP listener. Only 2026-07-28 is spoken here (stdio has no header to route 2025 clients
 * by), and {@code server/discover} says so. The SDK reads each line on its reader thread and
 * dispatches on its shared scheduler; the work itself runs on {@link ToolExecutor}, whose
 * bounded queue answers "busy, retry" past its size, so a flood of lines cannot grow it.
 * {@link StdioFraming} answers a line over {@link #MAX_LINE_BYTES} with an error and holds the end of
 * input until the requests read are answered.
 */
public final class McpStdioServer {

    /** As on HTTP: a JSON-RPC request of these tools is small. */
    static final int MAX_LINE_BYTES = 1 << 20;

    private final StdioMcpTransport transport;

    public McpStdioServer(ToolCatalog tools, String version, InputStream in, OutputStream out) {
        // Our framing in front: the SDK drops an over-long line silently and ends with requests unanswered.
        StdioFraming framing = new StdioFraming(in, out, MAX_LINE_BYTES);
        this.transport = new StdioMcpTransport(McpHttpServer.modernServer(tools, version, List.of(McpRequestRules.MODERN_VERSION)),
                McpJsonDefaults.getMapper(), framing.input(), framing.output(), MAX_LINE_BYTES + 1);
    }

    /** Serves until the input ends (the agent closed the pipe) or {@link #close()}. */
    public void serve() {
        transport.start().block();
    }

    public void close() {
        transport.closeGracefully().block();
    }
}
