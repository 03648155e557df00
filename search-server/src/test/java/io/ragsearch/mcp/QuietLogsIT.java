package io.ragsearch.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.cli.ServerJar;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client's mistakes and a client hanging up are the client's business: the server as shipped
 * (a separate JVM with its own logging configuration) answers them and logs nothing at WARN or
 * ERROR, so the log keeps its warnings for the server's own trouble.
 */
class QuietLogsIT {

    private static final Pattern LISTENING = Pattern.compile("ragsearch listening: mcp=http://[^:]+:(\\d+)/mcp admin=.*");
    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

    @TempDir
    Path dir;

    @Test
    void clientMistakesAndCancellationsLogNothingAtWarnOrError() throws Exception {
        List<String> cmd = ServerJar.command();
        cmd.addAll(List.of("serve", "--mcp-port", "0", "--admin-port", "0", "--bind", "127.0.0.1"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(dir.resolve("stderr.log").toFile());
        pb.environment().put("XDG_CACHE_HOME", dir.resolve("cache").toString()); // the sample as shipped, no local models
        Process p = pb.start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            Matcher m = null;
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                m = LISTENING.matcher(line);
                if (m.matches()) {
                    break;
                }
            }
            assertTrue(m != null && m.matches(), "no listening line: " + Files.readString(dir.resolve("stderr.log")));
            int port = Integer.parseInt(m.group(1));
            String before = Files.readString(dir.resolve("stderr.log"));

            // Mistakes, each answered with a clear error (the statuses are BadInputCatalogueIT's business).
            legacy(port, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-03-26\","
                    + "\"capabilities\":{},\"clientInfo\":{\"name\":\"old\",\"version\":\"1\"}}}", "2025-11-25");
            legacy(port, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}", "1999-01-01");
            legacy(port, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"drop_tables\"}}", "2025-11-25");
            legacy(port, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\",\"params\":{\"cursor\":\"x\"}}", "2025-11-25");
            legacy(port, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"search\","
                    + "\"arguments\":{\"project\":\"handbook-en\",\"query\":\"leave\",\"top_k\":\"many\"}}}", "2025-11-25");
            legacy(port, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"search\","
                    + "\"arguments\":{\"project\":\"nope\",\"query\":\"leave\"}}}", "2025-11-25");
            legacy(port, "{\"jsonrpc\":\"2.0\",\"id\":7,", "2025-11-25");
            modern(port, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":\"drop_tables\"," + META + "}}",
                    "drop_tables");
            modern(port, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\",\"params\":{\"cursor\":\"x\"," + META + "}}", null);
            modern(port, "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/list\",\"params\":{}}", null);
            // Cancellations: the notice, and a client that hangs up while its search runs.
            legacy(port, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":5}}", "2025-11-25");
            for (int i = 0; i < 4; i++) {
                hangUp(port, "{\"jsonrpc\":\"2.0\",\"id\":" + (20 + i) + ",\"method\":\"tools/call\",\"params\":{\"name\":\"search\","
                        + "\"arguments\":{\"project\":\"handbook-en\",\"query\":\"annual leave carried over to next year\"}}}");
            }
            Thread.sleep(3000); // the hung-up calls finish on the tool threads
            assertEquals(200, legacy(port, "{\"jsonrpc\":\"2.0\",\"id\":30,\"method\":\"ping\"}", "2025-11-25"), "still serving");

            String logged = Files.readString(dir.resolve("stderr.log")).substring(before.length());
            List<String> loud = logged.lines().filter(l -> l.contains(" WARN ") || l.contains(" ERROR ")).toList();
            assertTrue(loud.isEmpty(), "logged at WARN or above:\n" + String.join("\n", loud));
        } finally {
            p.destroy();
            long t0 = System.nanoTime();
            boolean stopped = p.waitFor(60, TimeUnit.SECONDS);
            System.err.println("QuietLogsIT: server stopped " + stopped + " after " + (System.nanoTime() - t0) / 1_000_000 + " ms");
            if (!stopped) {
                p.destroyForcibly();
            }
        }
    }

    private static int legacy(int port, String body, String version) throws Exception {
        Map<String, String> h = headers();
        h.put("MCP-Protocol-Version", version);
        return RawHttp.exchange(port, "POST", "/mcp", h, body.getBytes(StandardCharsets.UTF_8)).status();
    }

    private static void modern(int port, String body, String name) throws Exception {
        Map<String, String> h = headers();
        h.put("MCP-Protocol-Version", "2026-07-28");
        h.put("Mcp-Method", body.replaceAll(".*\"method\":\"([^\"]+)\".*", "$1"));
        if (name != null) {
            h.put("Mcp-Name", name);
        }
        RawHttp.exchange(port, "POST", "/mcp", h, body.getBytes(StandardCharsets.UTF_8));
    }

    /** Sends a call and closes the connection before the answer comes. */
    private static void hangUp(int port, String body) throws Exception {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        try (Socket s = new Socket("127.0.0.1", port)) {
            OutputStream out = s.getOutputStream();
            out.write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nContent-Type: application/json\r\n"
                    + "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\nContent-Length: "
                    + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            out.write(bytes);
            out.flush();
            Thread.sleep(20);
        }
    }

    private static Map<String, String> headers() {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Content-Type", "application/json");
        h.put("Accept", "application/json, text/event-stream");
        return h;
    }
}
