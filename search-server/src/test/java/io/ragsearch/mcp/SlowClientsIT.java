package io.ragsearch.mcp;

import static org.awaitility.Awaitility.await;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.ragsearch.server.SearchServerApp;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Slow and hostile clients (the review's findings): connections that send a request line a byte
 * at a time must not stop the admin probes, and bodies that trickle in must not hold the /mcp
 * in-flight permits that real searches need.
 */
class SlowClientsIT {

    private static final int SLOW_CONNECTIONS = 40;
    /** Bytes dripped on every connection before timing starts: each is well into its request. */
    private static final int DRIPS_BEFORE_MEASURING = 7;

    @Test
    void slowRequestLinesOnTheAdminPortDoNotDelayLivez() throws Exception {
        try (SearchServerApp app = TestServers.startSample(TestServers.server("127.0.0.1", null, null, null))) {
            AtomicBoolean running = new AtomicBoolean(true);
            List<Socket> sockets = new ArrayList<>();
            AtomicInteger dripped = new AtomicInteger();
            Thread dripper = dripper(sockets, running, dripped, app.adminPort(), new byte[0],
                    "GET /livez HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
            try {
                // Every slow connection is open and part-way through its request line.
                await().atMost(Duration.ofSeconds(30)).until(() -> dripped.get() >= DRIPS_BEFORE_MEASURING);
                HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
                long worst = 0;
                for (int i = 0; i < 30; i++) {
                    long t0 = System.nanoTime();
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.adminPort() + "/livez"))
                            .timeout(Duration.ofSeconds(3)).build(), HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, r.statusCode());
                    worst = Math.max(worst, System.nanoTime() - t0);
                    Thread.sleep(50); // spread the probes over the drip, as a kubelet's would be
                }
                System.out.printf(Locale.ROOT, "[slow-admin] %d slow connections: /livez worst %.1f ms%n", SLOW_CONNECTIONS, worst / 1e6);
                // A kubelet probe times out after 1-3 s; the old listener took > 3 s with two slow clients.
                assertTrue(worst < 1_000_000_000L, "worst /livez " + worst / 1e6 + " ms");
            } finally {
                running.set(false);
                dripper.join();
                for (Socket s : sockets) {
                    s.close();
                }
            }
        }
    }

    @Test
    void tricklingBodiesHoldNoMcpPermit() throws Exception {
        // Four in-flight permits: the old server gave all of them to four slow bodies.
        try (SearchServerApp app = TestServers.startSample(TestServers.server("127.0.0.1", 2, 2, 4))) {
            String head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Accept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n";
            AtomicBoolean running = new AtomicBoolean(true);
            List<Socket> sockets = new ArrayList<>();
            AtomicInteger dripped = new AtomicInteger();
            Thread dripper = dripper(sockets, running, dripped, app.mcpPort(), head.getBytes(StandardCharsets.US_ASCII),
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"                ".getBytes(StandardCharsets.US_ASCII));
            McpSyncClient client = null;
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> dripped.get() >= DRIPS_BEFORE_MEASURING);
                client = TestServers.client(app.mcpPort());
                for (int i = 0; i < 5; i++) {
                    long t0 = System.nanoTime();
                    CallToolResult r = client.callTool(new CallToolRequest("search",
                            Map.of("project", "handbook-en", "query", "annual leave days")));
                    double seconds = (System.nanoTime() - t0) / 1e9;
                    assertFalse(Boolean.TRUE.equals(r.isError()), r.toString());
                    // A search that waited for a permit would wait the 15 s suspend limit and fail with 503.
                    assertTrue(seconds < McpHttpServer.MAX_SUSPEND.toSeconds() / 2.0, "search took " + seconds + " s");
                }
            } finally {
                running.set(false);
                dripper.join();
                for (Socket s : sockets) {
                    s.close();
                }
                if (client != null) {
                    client.closeGracefully();
                }
            }
        }
    }

    /**
     * Opens the slow connections, sends {@code prefix} to each at once, then {@code drip} one byte
     * per connection every 200 ms (its last byte repeated once it runs out).
     */
    private static Thread dripper(List<Socket> sockets, AtomicBoolean running, AtomicInteger dripped, int port, byte[] prefix,
                                  byte[] drip)
            throws IOException {
        for (int i = 0; i < SLOW_CONNECTIONS; i++) {
            Socket s = new Socket("127.0.0.1", port);
            s.getOutputStream().write(prefix);
            s.getOutputStream().flush();
            sockets.add(s);
        }
        byte[] payload = drip;
        Thread t = new Thread(() -> {
            int at = 0;
            while (running.get()) {
                for (Socket s : sockets) {
                    try {
                        OutputStream out = s.getOutputStream();
                        out.write(payload[Math.min(at, payload.length - 1)]);
                        out.flush();
                    } catch (IOException e) {
                        // closed by the server: that is one of the defences
                    }
                }
                at++;
                dripped.set(at);
                try {
                    Thread.sleep(200); // the drip rate: a slow client, not a wait
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "dripper");
        t.start();
        return t;
    }
}
