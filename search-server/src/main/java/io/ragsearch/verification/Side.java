package io.ragsearch.verification;

import io.ragsearch.mcpclient.McpClientException;
import io.ragsearch.mcpclient.ToolClient;
import java.time.Duration;

/** One server during a run: its connection, or why there is none (every check then fails with that reason). */
final class Side implements AutoCloseable {

    private final Target target;
    private final Duration timeout;
    private final ToolClient client;
    private final String unreachable;

    private Side(Target target, Duration timeout, ToolClient client, String unreachable) {
        this.target = target;
        this.timeout = timeout;
        this.client = client;
        this.unreachable = unreachable;
    }

    static Side connect(Target target, Duration timeout) {
        try {
            return new Side(target, timeout, target.connect(timeout), null);
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
    ToolClient client() {
        return client;
    }

    String unreachable() {
        return unreachable;
    }

    /** A new connection of its own (health checks load the server from several). */
    ToolClient newClient() {
        return target.connect(timeout);
    }

    @Override
    public void close() {
        if (client != null) {
            client.close();
        }
    }
}
