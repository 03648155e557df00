package io.ragsearch.verification;

import io.ragsearch.mcpclient.McpClientException;
import io.ragsearch.mcpclient.McpToolClient;
import java.time.Duration;

/** One server during a run: its connection, or why there is none (every check then fails with that reason). */
final class Side implements AutoCloseable {

    private final Target target;
    private final Duration timeout;
    private final McpToolClient client;
    private final String unreachable;

    private Side(Target target, Duration timeout, McpToolClient client, String unreachable) {
        this.target = target;
        this.timeout = timeout;
        this.client = client;
        this.unreachable = unreachable;
    }

    static Side connect(Target target, Duration timeout) {
        try {
            return new Side(target, timeout, new McpToolClient(target.mcpUrl(), target.token(), timeout), null);
        } catch (McpClientException e) {
            return new Side(target, timeout, null, e.getMessage());
        }
    }

    Target target() {
        return target;
    }

    Duration timeout() {
        return timeout;
    }

    /** The connection, or null when the server could not be reached (see {@link #unreachable()}). */
    McpToolClient client() {
        return client;
    }

    String unreachable() {
        return unreachable;
    }

    /** A new connection of its own (health checks load the server from several). */
    McpToolClient newClient() {
        return new McpToolClient(target.mcpUrl(), target.token(), timeout);
    }

    @Override
    public void close() {
        if (client != null) {
            client.close();
        }
    }
}
