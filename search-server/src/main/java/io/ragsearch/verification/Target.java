package io.ragsearch.verification;

import io.ragsearch.mcpclient.McpToolClient;
import java.net.URI;

/**
 * A server to verify: its MCP endpoint, its admin listener (for health checks; null when it
 * cannot be known) and a bearer token (or null). Without an admin URL it is derived as the MCP
 * address's host with the port plus one — the server's default layout (8080 and 8081), which pods keep.
 */
public record Target(String mcpUrl, URI adminUrl, String token) {

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
}
