package io.ragsearch.mcp;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.rerank.RerankerFactory;
import io.ragsearch.search.TestProjects;
import io.ragsearch.server.SearchServerApp;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Starts the real server on ephemeral ports and connects real MCP clients to it. */
public final class TestServers {

    private TestServers() {
    }

    public static ServerSettings.Server server(String bind, Integer toolThreads, Integer toolQueue, Integer maxInFlight) {
        return ServerSettings.Server.EMPTY.withBindAddress(bind).withMcpPort(0).withAdminPort(0).withToolThreads(toolThreads)
                .withToolQueue(toolQueue).withMaxInFlightRequests(maxInFlight);
    }

    /**
     * Two lexical projects over the English sample, "reranked" with the cost stand-in under one
     * permit (calibrated at one level) and "plain" without: rerank load beside searches that need none.
     */
    public static ServerSettings rerankedBesidePlain() {
        ServerSettings.RerankerRef standIn = ServerSettings.RerankerRef.ofBuiltin(RerankerFactory.STAND_IN).withMaxSeqLen(256);
        return ServerSettings.EMPTY.withServer(server("127.0.0.1", 2, 32, null))
                .withRerank(ServerSettings.Rerank.EMPTY.withConcurrency(1).withIntraOpThreads(1).withCalibrate(true)
                        .withCalibrationLevels(List.of(1)))
                .withProjects(List.of(ServerSettings.Project.ofDirectory("reranked", TestProjects.sampleDirectory("en").toString())
                                .withDescription("").withRetrieval("lexical").withReranker(standIn),
                        TestProjects.config("plain", TestProjects.sampleDirectory("en"), "lexical")));
    }

    public static SearchServerApp startSample(ServerSettings.Server server) throws Exception {
        return startSample(server, Map.of());
    }

    /** @param env the environment the server resolves models and caches from (Map.of(): MiniLM, no vector cache) */
    public static SearchServerApp startSample(ServerSettings.Server server, Map<String, String> env) throws Exception {
        ServerSettings config = ServerSettings.EMPTY.withServer(server).withProjects(List.of(
                TestProjects.config("handbook-ko", TestProjects.sampleDirectory("ko"), null),
                TestProjects.config("handbook-en", TestProjects.sampleDirectory("en"), null)));
        return SearchServerApp.start(config, env);
    }

    public static McpSyncClient client(int port) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + port)
                .endpoint("/mcp")
                .build();
        // The SDK client gives up after 20 s by default; loaded CI machines can be slower than that.
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(120)).build();
        client.initialize();
        return client;
    }

    /** How concurrent calls ended: served, or refused with the retryable busy error (anything else fails the test). */
    public record Tally(int ok, int busy) {
    }

    /** {@code callers} clients, each with its own connection, send one search at once. */
    public static Tally concurrentSearches(int port, int callers, String project, String query) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        List<McpSyncClient> clients = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            clients.add(client(port));
        }
        try {
            List<Future<String>> calls = new ArrayList<>();
            for (McpSyncClient c : clients) {
                calls.add(pool.submit(() -> {
                    CallToolResult r = c.callTool(new CallToolRequest("search", Map.of("project", project, "query", query)));
                    return Boolean.TRUE.equals(r.isError()) ? ((TextContent) r.content().get(0)).text() : "ok";
                }));
            }
            int ok = 0;
            int busy = 0;
            for (Future<String> f : calls) {
                String outcome = f.get();
                if (outcome.equals("ok")) {
                    ok++;
                } else {
                    assertTrue(outcome.startsWith("busy, retry"), outcome);
                    busy++;
                }
            }
            return new Tally(ok, busy);
        } finally {
            clients.forEach(McpSyncClient::closeGracefully);
            pool.shutdown();
        }
    }

    /** A raw HTTP/1.1 exchange, for headers the JDK client will not send (Host) and bodies it would hide. */
    public record RawResponse(int status, String body, String head) {
    }

    public static RawResponse raw(int port, String method, String host, Map<String, String> headers, String body) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            byte[] payload = body.getBytes(StandardCharsets.UTF_8);
            StringBuilder req = new StringBuilder(method + " /mcp HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n");
            headers.forEach((k, v) -> req.append(k).append(": ").append(v).append("\r\n"));
            req.append("Content-Length: ").append(payload.length).append("\r\n\r\n");
            OutputStream out = socket.getOutputStream();
            out.write(req.toString().getBytes(StandardCharsets.UTF_8));
            out.write(payload);
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            String text = all.toString(StandardCharsets.UTF_8);
            int status = Integer.parseInt(text.substring(9, 12));
            int split = text.indexOf("\r\n\r\n");
            return new RawResponse(status, split < 0 ? "" : text.substring(split + 4), split < 0 ? text : text.substring(0, split));
        }
    }

    public static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";

    public static final Map<String, String> JSON_HEADERS = Map.of(
            "Content-Type", "application/json", "Accept", "application/json, text/event-stream");
}
