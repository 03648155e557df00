package io.ragsearch.mcp;

import io.ragsearch.config.ConfigException;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.search.TestProjects;
import io.ragsearch.server.SearchServerApp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** RAGSEARCH_AUTH_TOKEN guards /mcp; the admin port stays open for probes and the operator. */
class BearerTokenAuthIT {
    private static SearchServerApp app;

    @BeforeAll
    static void start() throws Exception {
        ServerSettings config = ServerSettings.EMPTY.withServer(TestServers.server("127.0.0.1", null, null, null)).withProjects(List.of(TestProjects.config("handbook-en", TestProjects.sampleDirectory("en"), null)));
        app = SearchServerApp.start(config, Map.of("RAGSEARCH_AUTH_TOKEN", "s3cret-token"));
    }

    @AfterAll
    static void stop() throws Exception {
        app.close();
    }

    @Test
    void missingOrWrongTokenIs401WithAChallenge() throws Exception {
        var none = TestServers.raw(app.mcpPort(), "POST", "127.0.0.1", TestServers.JSON_HEADERS, TestServers.INITIALIZE);
        assertEquals(401, none.status());
        assertTrue(none.head().contains("WWW-Authenticate: Bearer realm=\"ragsearch\""), none.head());
        assertTrue(none.body().contains("missing bearer token"), none.body());

        Map<String, String> wrong = new HashMap<>(TestServers.JSON_HEADERS);
        wrong.put("Authorization", "Bearer s3cret-tokeX");
        var bad = TestServers.raw(app.mcpPort(), "POST", "127.0.0.1", wrong, TestServers.INITIALIZE);
        assertEquals(401, bad.status());
        assertTrue(bad.head().contains("error=\"invalid_token\""), bad.head());
    }

    @Test
    void theRightTokenIsServed() throws Exception {
        Map<String, String> right = new HashMap<>(TestServers.JSON_HEADERS);
        right.put("Authorization", "Bearer s3cret-token");
        var ok = TestServers.raw(app.mcpPort(), "POST", "127.0.0.1", right, TestServers.INITIALIZE);
        assertEquals(200, ok.status(), ok.body());
        assertTrue(ok.body().contains("\"serverInfo\""), ok.body());
    }

    @Test
    void theNewRevisionIsGuardedTheSameWay() throws Exception {
        String discover = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":"
                + "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        Map<String, String> headers = new HashMap<>(TestServers.JSON_HEADERS);
        headers.put("MCP-Protocol-Version", "2026-07-28");
        headers.put("Mcp-Method", "server/discover");
        var none = TestServers.raw(app.mcpPort(), "POST", "127.0.0.1", headers, discover);
        assertEquals(401, none.status(), none.body());
        headers.put("Authorization", "Bearer s3cret-token");
        var ok = TestServers.raw(app.mcpPort(), "POST", "127.0.0.1", headers, discover);
        assertEquals(200, ok.status(), ok.body());
        assertTrue(ok.body().contains("\"supportedVersions\""), ok.body());
    }

    @Test
    void adminEndpointsNeedNoToken() throws Exception {
        HttpResponse<String> live = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.adminPort() + "/livez")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, live.statusCode());
    }

    @Test
    void aBlankTokenIsRefusedRatherThanServingWithoutAuth() {
        ServerSettings config = ServerSettings.EMPTY.withServer(TestServers.server("127.0.0.1", null, null, null)).withProjects(List.of(TestProjects.config("handbook-en", TestProjects.sampleDirectory("en"), null)));
        ConfigException e = assertThrows(ConfigException.class,
                () -> SearchServerApp.start(config, Map.of("RAGSEARCH_AUTH_TOKEN", "  ")).close());
        assertTrue(e.getMessage().contains("RAGSEARCH_AUTH_TOKEN is set but blank"), e.getMessage());
    }
}
