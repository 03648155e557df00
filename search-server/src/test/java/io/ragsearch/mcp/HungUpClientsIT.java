package io.ragsearch.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.server.SearchServerApp;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * In stateless HTTP a client cancels a call by closing its connection. A client that sends a
 * call and hangs up at once must give back everything the call held: found leaking one
 * in-flight permit per hung-up keep-alive connection, so that as many hang-ups as the cap
 * left every later request waiting 15 s for a 503.
 */
class HungUpClientsIT {

    @Test
    void clientsThatHangUpGiveTheirInFlightPermitsBack() throws Exception {
        try (SearchServerApp app = TestServers.startSample(TestServers.server("127.0.0.1", 2, 4, 3))) {
            for (int i = 0; i < 12; i++) {
                hangUp(app.mcpPort(), i % 2 == 0 ? "2025-11-25" : "2026-07-28");
            }
            Thread.sleep(1000);
            Map<String, String> h = new LinkedHashMap<>();
            h.put("Content-Type", "application/json");
            h.put("Accept", "application/json, text/event-stream");
            h.put("MCP-Protocol-Version", "2025-11-25");
            long t0 = System.nanoTime();
            RawHttp.Response r = RawHttp.exchange(app.mcpPort(), "POST", "/mcp", h,
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}".getBytes(StandardCharsets.UTF_8));
            long millis = (System.nanoTime() - t0) / 1_000_000;
            assertEquals(200, r.status(), r.body());
            assertTrue(millis < 5_000, "answered after " + millis + " ms: a permit was still held");
        }
    }

    /** A tool call on a keep-alive connection, closed right after the request is sent. */
    private static void hangUp(int port, String version) throws Exception {
        String meta = version.equals("2026-07-28") ? ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}" : "";
        byte[] body = ("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"list_projects\",\"arguments\":{}"
                + meta + "}}").getBytes(StandardCharsets.UTF_8);
        try (Socket s = new Socket("127.0.0.1", port)) {
            OutputStream out = s.getOutputStream();
            out.write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nContent-Type: application/json\r\n"
                    + "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: " + version + "\r\n"
                    + (version.equals("2026-07-28") ? "Mcp-Method: tools/call\r\nMcp-Name: list_projects\r\n" : "")
                    + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            out.write(body);
            out.flush();
        }
    }
}
