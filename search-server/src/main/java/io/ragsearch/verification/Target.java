package io.ragsearch.verification;

import io.ragsearch.mcpclient.McpToolClient;
import io.ragsearch.mcpclient.ToolClient;
import java.net.URI;
import java.time.Duration;
import java.util.function.Function;

/**
 * A server to verify: its MCP endpoint, its admin listener (for health checks; null when it
 * cannot be known) and a bearer token (or null). Without an admin URL it is derived as the MCP
 * address's host with the port plus one — the server's default layout (8080 and 8081), which pods keep.
 *
 * @param inProcess when not null, how this server's own tools are asked in process instead of over
 *                  {@code mcpUrl} (a server in mode jwt verifying itself: it holds no token for its own
 *                  port, nor for a baseline's, so it is never given a baseline)
 */
public record Target(String mcpUrl, URI adminUrl, String token, Function<Duration, ToolClient> inProcess) {

    public Target(String mcpUrl, URI adminUrl, String token) {
        this(mcpUrl, adminUrl, token, null);
    }

    public static Target of(String mcpUrl, String adminUrl, String token) {
        URI mcp;
        try {
            mcp = McpToolClient.parse(mcpUrl);
        } catch (RuntimeException e) {
            throw new VerifyException("the MCP URL must be an http(s) address such as http://127.0.0.1:8080/mcp, got '" + mcpUrl + "'");
        }
        URI admin;
        if (adminUrl != null && !adminUrl.isBlank()) {
            try {
                admin = McpToolClient.parse(adminUrl);
            } catch (RuntimeException e) {
                throw new VerifyException("the admin URL must be an http(s) address such as http://127.0.0.1:8081, got '" + adminUrl + "'");
            }
        } else {
            admin = mcp.getPort() < 0 ? null : URI.create(mcp.getScheme() + "://" + mcp.getHost() + ":" + (mcp.getPort() + 1));
        }
        return new Target(mcpUrl, admin, token);
    }

    /** This target with its tools asked in process (the MCP URL stays as the report's name for it). */
    public Target askedInProcess(Function<Duration, ToolClient> tools) {
        return new Target(mcpUrl, adminUrl, null, tools);
    }

    /** A new connection to the tools, over HTTP or in process. */
    ToolClient connect(Duration timeout) {
        return inProcess != null ? inProcess.apply(timeout) : new McpToolClient(mcpUrl, token, timeout);
    }
}
