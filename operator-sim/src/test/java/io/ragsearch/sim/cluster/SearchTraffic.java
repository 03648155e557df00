package io.ragsearch.sim.cluster;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.ragsearch.sim.playground.ReadyEndpoints;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An agent searching through the "Service": each call goes to one of the pods that are ready at
 * that moment (round robin), over real MCP. Counts what was served and what failed.
 */
public final class SearchTraffic implements AutoCloseable {
    /** The addresses a search may go to now. */
    private final java.util.function.Supplier<List<String>> endpoints;
    private final Map<String, McpSyncClient> clients = new ConcurrentHashMap<>();
    public final AtomicInteger served = new AtomicInteger();
    public final AtomicInteger failed = new AtomicInteger();
    public final List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger turn = new AtomicInteger();
    private volatile boolean running;
    private Thread loop;

    /** Routed to the ready pods the API server shows (an API server without EndpointSlices). */
    public SearchTraffic(KubernetesClient api, String namespace, String instance) {
        this(() -> ReadyEndpoints.of(api, namespace, instance));
    }

    public SearchTraffic(java.util.function.Supplier<List<String>> endpoints) {
        this.endpoints = endpoints;
    }

    /** One search; returns the result or throws what the client saw. */
    public McpSchema.CallToolResult search(String project, String query) {
        List<String> ready = endpoints.get();
        if (ready.isEmpty()) {
            throw new IllegalStateException("no ready pod to route to");
        }
        String ip = ready.get(Math.floorMod(turn.getAndIncrement(), ready.size()));
        McpSyncClient client = clients.computeIfAbsent(ip, SearchTraffic::connect);
        try {
            return client.callTool(new McpSchema.CallToolRequest("search", Map.of("project", project, "query", query)));
        } catch (RuntimeException e) {
            clients.remove(ip);
            throw new IllegalStateException(ip + ": " + e.getMessage(), e);
        }
    }

    /** Searches back to back on a thread until {@link #close()}. */
    public void keepSearching(String project, String query) {
        running = true;
        loop = new Thread(() -> {
            while (running) {
                try {
                    McpSchema.CallToolResult r = search(project, query);
                    if (Boolean.TRUE.equals(r.isError())) {
                        failed.incrementAndGet();
                        failures.add(((McpSchema.TextContent) r.content().get(0)).text());
                    } else {
                        served.incrementAndGet();
                    }
                } catch (RuntimeException e) {
                    failed.incrementAndGet();
                    failures.add(e.getMessage());
                }
            }
        }, "search-traffic");
        loop.start();
    }

    /** Waits until {@code more} searches beyond those served so far have been served (a minute at most). */
    public void awaitServed(int more) {
        int target = served.get() + more;
        org.awaitility.Awaitility.await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(50))
                .until(() -> served.get() >= target);
    }

    public static McpSyncClient connect(String ip) {
        McpSyncClient c = McpClient.sync(HttpClientStreamableHttpTransport.builder("http://" + ip + ":8080").endpoint("/mcp").build())
                .requestTimeout(Duration.ofSeconds(60)).build();
        c.initialize();
        return c;
    }

    /** Ends {@link #keepSearching} and waits for its last call. */
    public void stopSearching() throws InterruptedException {
        running = false;
        if (loop != null) {
            loop.join(60_000);
            loop = null;
        }
    }

    @Override
    public void close() throws InterruptedException {
        stopSearching();
        clients.values().forEach(McpSyncClient::closeGracefully);
        clients.clear();
    }
}
