package io.ragsearch.mcp;

import io.ragsearch.contract.AdminEndpoints;

/**
 * The MCP listener: address and port, how many requests may be in flight (past the tool pool and
 * its queue they wait suspended in Jetty, holding no thread), and the bearer token (null: no auth).
 * Port and in-flight count come checked by the configuration's rules (the contract's {@code SettingsRules}).
 */
public record ListenerSettings(String bindAddress, int port, int maxInFlightRequests, String bearerToken) {

    /**
     * Loopback: a developer's `serve` is not reachable from the network unless asked
     * (`--bind 0.0.0.0`); the operator sets 0.0.0.0 in pods explicitly.
     */
    public static final String DEFAULT_BIND = "127.0.0.1";
    public static final int DEFAULT_PORT = AdminEndpoints.DEFAULT_MCP_PORT;

    /** As many requests in flight as the tool pool runs and queues. */
    public static int defaultMaxInFlight(ToolPoolSettings tools) {
        return tools.threads() + tools.queue();
    }

    @Override
    public String toString() {
        return "ListenerSettings[" + bindAddress + ":" + port + ", maxInFlightRequests=" + maxInFlightRequests + ", auth="
                + (bearerToken == null ? "off" : "on") + "]";
    }
}
