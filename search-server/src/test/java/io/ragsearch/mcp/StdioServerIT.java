package io.ragsearch.mcp;

import io.ragsearch.config.ServerEnvironment;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.search.TestProjects;
import io.ragsearch.server.StdioServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/** {@code ragsearch stdio}: MCP 2026-07-28 over a pipe, the same tools and answers, ended by closing the input. */
class StdioServerIT {

    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

    @Test
    void servesTheToolsOverAPipeUntilTheInputCloses() throws Exception {
        Piped p = start();
        OutputStream toServer = p.toServer();
        Replies replies = p.replies();
        CompletableFuture<Void> running = p.running();

        JsonNode discover = ask(toServer, replies, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{" + META + "}}");
        assertEquals(List.of("2026-07-28"), JSON.convertValue(discover.get("result").get("supportedVersions"), List.class),
                "only 2026-07-28 on stdio");
        JsonNode tools = ask(toServer, replies, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{" + META + "}}");
        assertEquals(4, tools.get("result").get("tools").size(), tools.toString());
        JsonNode search = ask(toServer, replies, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"search\","
                + "\"arguments\":{\"project\":\"handbook-en\",\"query\":\"how many days of annual leave\"}," + META + "}}");
        assertFalse(search.get("result").get("isError").asBoolean(), search.toString());
        assertTrue(search.get("result").get("structuredContent").get("results").size() > 0, search.toString());
        JsonNode unknown = ask(toServer, replies, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"drop_tables\","
                + META + "}}");
        assertTrue(unknown.get("error").get("message").asString().startsWith("unknown tool 'drop_tables'; this server's tools:"),
                unknown.toString());
        JsonNode old = ask(toServer, replies, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\",\"params\":{\"_meta\":"
                + "{\"io.modelcontextprotocol/protocolVersion\":\"2025-11-25\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}");
        assertEquals(-32022, old.get("error").get("code").asInt(), old.toString());

        toServer.close(); // the agent goes away
        running.get(30, TimeUnit.SECONDS);
    }

    /** A server on a pipe: what the agent writes, what it reads, and the server's run (ends when it exits). */
    private record Piped(OutputStream toServer, Replies replies, CompletableFuture<Void> running) {
    }

    /**
     * The server's lines, read by one thread for the whole test: a piped stream fails its writer
     * ("read end dead") once the last thread that read it has ended, so reads may not hop threads.
     */
    private static final class Replies {
        private static final String END = "\u0000end";
        private final java.util.concurrent.BlockingQueue<String> lines = new java.util.concurrent.LinkedBlockingQueue<>();

        Replies(BufferedReader in) {
            Thread reader = new Thread(() -> {
                try {
                    for (String line; (line = in.readLine()) != null; ) {
                        lines.add(line);
                    }
                } catch (java.io.IOException e) {
                    // the server's end went away: the same as the end of its output
                }
                lines.add(END);
            }, "stdio-replies");
            reader.setDaemon(true);
            reader.start();
        }

        /** The next line, null when the server closed its output; fails after 60 s naming what it waited for. */
        String next(String waitingFor) throws InterruptedException {
            String line = lines.poll(60, TimeUnit.SECONDS);
            if (line == null) {
                throw new AssertionError("no line from the server within 60 s: waited for " + waitingFor);
            }
            return line.equals(END) ? null : line;
        }
    }

    private static Piped start() throws Exception {
        ServerSettings config = ServerSettings.EMPTY.withServer(TestServers.server("127.0.0.1", null, null, null))
                .withProjects(List.of(TestProjects.config("handbook-en", TestProjects.sampleDirectory("en"), null)));
        PipedOutputStream toServer = new PipedOutputStream();
        PipedInputStream serverIn = new PipedInputStream(toServer, 1 << 16);
        PipedInputStream fromServer = new PipedInputStream(1 << 20);
        PipedOutputStream serverOut = new PipedOutputStream(fromServer);
        CompletableFuture<Void> running = CompletableFuture.runAsync(() -> {
            try {
                StdioServer.run(config, ServerEnvironment.read(Map.of()), serverIn, serverOut);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        return new Piped(toServer, new Replies(new BufferedReader(new InputStreamReader(fromServer, StandardCharsets.UTF_8))), running);
    }

    /** Issue 32: a line over 1 MiB was dropped without a word; now a JSON-RPC error, and the next line is served. */
    @Test
    void aLineOverTheLimitIsAnsweredWithAnErrorAndServingGoesOn() throws Exception {
        Piped p = start();
        String huge = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"" + "x".repeat(McpStdioServer.MAX_LINE_BYTES)
                + "\"," + META + "}}";
        JsonNode refused = ask(p.toServer(), p.replies(), huge);
        assertEquals(-32600, refused.get("error").get("code").asInt(), refused.toString());
        assertTrue(refused.get("id").isNull(), refused.toString());
        assertTrue(refused.get("error").get("message").asString().contains("a line longer than 1048576 bytes was not read"),
                refused.toString());
        JsonNode tools = ask(p.toServer(), p.replies(), "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{" + META + "}}");
        assertEquals(4, tools.get("result").get("tools").size(), tools.toString());
        p.toServer().close();
        p.running().get(30, TimeUnit.SECONDS);
    }

    /** Issue 32: requests in flight when the agent closed its end were never answered; now each is, then the server ends. */
    @Test
    void requestsInFlightWhenTheInputClosesAreAnsweredBeforeTheServerEnds() throws Exception {
        Piped p = start();
        int n = 6;
        StringBuilder lines = new StringBuilder();
        for (int id = 1; id <= n; id++) {
            lines.append("{\"jsonrpc\":\"2.0\",\"id\":").append(id).append(",\"method\":\"tools/call\",\"params\":{\"name\":\"search\","
                    + "\"arguments\":{\"project\":\"handbook-en\",\"query\":\"annual leave days ").append(id).append("\"},")
                    .append(META).append("}}\n");
        }
        p.toServer().write(lines.toString().getBytes(StandardCharsets.UTF_8));
        p.toServer().close(); // the agent goes away with every call still running
        java.util.Set<Integer> answered = new java.util.TreeSet<>();
        for (String reply; answered.size() < n
                && (reply = p.replies().next("answers to " + n + " calls sent before the input closed; answered: " + answered)) != null; ) {
            answered.add(JSON.readTree(reply).get("id").asInt());
        }
        assertEquals(n, answered.size(), "answered: " + answered);
        p.running().get(60, TimeUnit.SECONDS);
    }

    private static JsonNode ask(OutputStream out, Replies in, String line) throws Exception {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        String shown = line.length() > 200 ? line.substring(0, 200) + "… (" + line.length() + " characters)" : line;
        String reply = in.next("the reply to " + shown);
        assertTrue(reply != null, "the server closed its output instead of replying to " + shown);
        return JSON.readTree(reply);
    }
}
