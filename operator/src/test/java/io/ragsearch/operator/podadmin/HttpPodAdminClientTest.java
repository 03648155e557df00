package io.ragsearch.operator.podadmin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The operator's client of a pod's admin port, against a real HTTP listener: a refusal becomes a
 * short reason (the pod's own "error" line at most), never the body it came with; the baseline it
 * asks for is only the MCP address it was given.
 */
class HttpPodAdminClientTest {

    @Test
    void aRefusedStartSaysTheStatusAndThePodsReasonNeverTheWholeBody() throws Exception {
        String secret = "leaked-config-line";
        List<String> queries = new CopyOnWriteArrayList<>();
        for (String body : List.of(secret.repeat(1_000),
                "{\"error\":\"no baseline is allowed on this server\",\"detail\":\"" + secret + "\"}",
                "{\"error\":\"" + "x".repeat(5_000) + "\"}")) {
            HttpServer pod = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 4);
            pod.createContext("/", exchange -> {
                queries.add(exchange.getRequestURI().getRawQuery());
                byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(403, bytes.length);
                exchange.getResponseBody().write(bytes);
                exchange.close();
            });
            pod.start();
            try {
                IOException e = assertThrows(IOException.class, () -> new HttpPodAdminClient().startVerification("127.0.0.1",
                        pod.getAddress().getPort(), "http://rules.search.svc:8080/mcp"));
                assertTrue(e.getMessage().contains("answered 403"), e.getMessage());
                assertFalse(e.getMessage().contains(secret), e.getMessage());
                assertTrue(e.getMessage().length() < 300, e.getMessage());
                if (body.contains("no baseline")) {
                    assertTrue(e.getMessage().endsWith(": no baseline is allowed on this server"), e.getMessage());
                }
            } finally {
                pod.stop(0);
            }
        }
        assertEquals("baseline=http%3A%2F%2Frules.search.svc%3A8080%2Fmcp", queries.get(0), "only the MCP address is named");
    }
}
