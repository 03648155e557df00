package io.ragsearch.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import io.ragsearch.auth.TestIssuer;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.mcpclient.McpToolClient;
import io.ragsearch.mcpclient.ToolAnswer;
import io.ragsearch.search.TestProjects;
import io.ragsearch.server.SearchServerApp;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * /mcp as an OAuth resource server with JWTs of a real issuer on loopback (keys made here, the JWKS
 * found by OIDC discovery and served only to the bearer token of auth.tokenFile, as the Kubernetes
 * API server serves it): per-project access over both protocol revisions with a real MCP client,
 * the protected resource metadata, and every bad token refused with its status and challenge.
 */
class JwtAuthIT {

    static final String AUDIENCE = "ragsearch";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String FETCH_TOKEN = "kube-reader-token";

    @TempDir
    static Path dir;
    private static TestIssuer issuer;
    private static RSAKey rsa;
    private static ECKey ec;
    private static SearchServerApp app;

    @BeforeAll
    static void start() throws Exception {
        issuer = new TestIssuer();
        rsa = TestIssuer.rsa("rsa-1");
        ec = TestIssuer.ec("ec-1");
        issuer.publish(rsa);
        issuer.publish(ec);
        issuer.requireBearer(FETCH_TOKEN);
        Path tokenFile = Files.writeString(dir.resolve("token"), FETCH_TOKEN + "\n");
        app = SearchServerApp.start(config(issuer, tokenFile, null), Map.of());
    }

    /** Two projects; hr reads the Korean handbook, sec the English one, group admins both. */
    static ServerSettings config(TestIssuer issuer, Path tokenFile, String jwksUrl) {
        ServerSettings.Auth auth = ServerSettings.Auth.EMPTY.withMode("jwt").withIssuer(issuer.issuer()).withAudiences(List.of(AUDIENCE))
                .withJwksUrl(jwksUrl).withTokenFile(tokenFile == null ? null : tokenFile.toString())
                .withAccess(List.of(
                        ServerSettings.Access.EMPTY.withProjects(List.of("handbook-ko")).withServiceAccounts(List.of("agents:hr")),
                        ServerSettings.Access.EMPTY.withProjects(List.of("handbook-en")).withServiceAccounts(List.of("agents:sec")),
                        ServerSettings.Access.EMPTY.withProjects(List.of("*")).withGroups(List.of("admins"))));
        return ServerSettings.EMPTY.withServer(TestServers.server("127.0.0.1", null, null, null)).withAuth(auth).withProjects(List.of(
                TestProjects.config("handbook-ko", TestProjects.sampleDirectory("ko"), "lexical"),
                TestProjects.config("handbook-en", TestProjects.sampleDirectory("en"), "lexical")));
    }

    @AfterAll
    static void stop() throws Exception {
        if (app != null) {
            app.close();
        }
        issuer.close();
    }

    private static String token(String namespace, String name) {
        return TestIssuer.sign(rsa, issuer.serviceAccount(namespace, name, AUDIENCE).build());
    }

    private static McpToolClient client(String token) {
        return new McpToolClient("http://127.0.0.1:" + app.mcpPort() + "/mcp", token, Duration.ofSeconds(120));
    }

    @Test
    void eachServiceAccountSeesAndSearchesOnlyItsProjects() {
        try (McpToolClient hr = client(token("agents", "hr")); McpToolClient sec = client(token("agents", "sec"))) {
            assertEquals(List.of("handbook-ko"), projectNames(hr.call("list_projects", Map.of())));
            assertEquals(List.of("handbook-en"), projectNames(sec.call("list_projects", Map.of())));
            ToolAnswer own = sec.call("search", Map.of("project", "handbook-en", "query", "annual leave"));
            assertFalse(own.error(), own.text());

            // Another's project is answered exactly as one that does not exist: nothing tells it is there.
            for (String tool : List.of("search", "list_documents", "read_article")) {
                Map<String, Object> theirs = new LinkedHashMap<>(Map.of("project", "handbook-ko", "query", "휴가", "document", "x", "article", "제1조"));
                Map<String, Object> none = new LinkedHashMap<>(theirs);
                none.put("project", "no-such-project");
                if (!tool.equals("search")) {
                    theirs.remove("query");
                    none.remove("query");
                }
                if (!tool.equals("read_article")) {
                    theirs.keySet().removeAll(List.of("document", "article"));
                    none.keySet().removeAll(List.of("document", "article"));
                }
                ToolAnswer refused = sec.call(tool, theirs);
                ToolAnswer unknown = sec.call(tool, none);
                assertTrue(refused.error() && unknown.error(), tool + ": " + refused.text());
                assertEquals(unknown.text().replace("no-such-project", "P"), refused.text().replace("handbook-ko", "P"), tool);
                assertEquals("unknown project 'handbook-ko'; projects: handbook-en", refused.text(), tool);
            }
        }
    }

    @Test
    void aGroupClaimGrantsWhatItsRuleSays() {
        String admin = TestIssuer.sign(ec, issuer.serviceAccount("ops", "admin", AUDIENCE).claim("groups", List.of("admins")).build());
        try (McpToolClient c = client(admin)) {
            assertEquals(List.of("handbook-en", "handbook-ko"), projectNames(c.call("list_projects", Map.of())));
        }
    }

    @Test
    void theNewRevisionIsScopedTheSameWay() throws Exception {
        RawHttp.Response r = modern(token("agents", "hr"), "tools/call", "list_projects", "\"name\":\"list_projects\",\"arguments\":{}");
        assertEquals(200, r.status(), r.body());
        JsonNode projects = JSON.readTree(r.body()).get("result").get("structuredContent").get("projects");
        assertEquals(1, projects.size(), r.body());
        assertEquals("handbook-ko", projects.get(0).get("name").asString());

        RawHttp.Response none = modern(null, "server/discover", null, "");
        assertEquals(401, none.status(), none.body());
        assertTrue(none.headers().get("www-authenticate").startsWith("Bearer resource_metadata=\""), none.headers().toString());
    }

    @Test
    void noTokenIs401NamingTheResourceMetadataWhichIsServed() throws Exception {
        String base = "http://127.0.0.1:" + app.mcpPort();
        RawHttp.Response r = legacy(null);
        assertEquals(401, r.status());
        assertEquals("Bearer resource_metadata=\"" + base + "/.well-known/oauth-protected-resource/mcp\"",
                r.headers().get("www-authenticate"));
        assertTrue(r.body().contains("missing bearer token"), r.body());

        for (String path : List.of("/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource")) {
            RawHttp.Response meta = RawHttp.exchange(app.mcpPort(), "GET", path, Map.of(), new byte[0]);
            assertEquals(200, meta.status(), path);
            JsonNode doc = JSON.readTree(meta.body());
            assertEquals(base + "/mcp", doc.get("resource").asString(), meta.body());
            assertEquals(issuer.issuer(), doc.get("authorization_servers").get(0).asString(), meta.body());
            assertEquals("header", doc.get("bearer_methods_supported").get(0).asString(), meta.body());
        }
    }

    /** Every bad token: status, the challenge's error, the reason counted, and nothing of the token echoed. */
    @Test
    void badTokensAreRefusedWithTheirStatusAndChallenge() throws Exception {
        Instant now = Instant.now();
        RSAKey stranger = TestIssuer.rsa("rsa-1"); // same kid, another key: a forged signature
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("audience", TestIssuer.sign(rsa, issuer.serviceAccount("agents", "hr", "kubernetes").build()));
        cases.put("expired", TestIssuer.sign(rsa, issuer.serviceAccount("agents", "hr", AUDIENCE)
                .issueTime(Date.from(now.minusSeconds(7200))).notBeforeTime(Date.from(now.minusSeconds(7200)))
                .expirationTime(Date.from(now.minusSeconds(3600))).build()));
        cases.put("not_yet_valid", TestIssuer.sign(rsa, issuer.serviceAccount("agents", "hr", AUDIENCE)
                .notBeforeTime(Date.from(now.plusSeconds(3600))).expirationTime(Date.from(now.plusSeconds(7200))).build()));
        cases.put("bad_signature", TestIssuer.sign(stranger, issuer.serviceAccount("agents", "hr", AUDIENCE).build()));
        cases.put("unknown_key", TestIssuer.sign(TestIssuer.rsa("rsa-unpublished"), issuer.serviceAccount("agents", "hr", AUDIENCE).build()));
        cases.put("algorithm", new PlainJWT(issuer.serviceAccount("agents", "hr", AUDIENCE).build()).serialize());
        cases.put("issuer", TestIssuer.sign(rsa, issuer.serviceAccount("agents", "hr", AUDIENCE).issuer("https://elsewhere.example").build()));
        cases.put("malformed", "not-a-jwt");
        cases.put("no_subject", TestIssuer.sign(rsa, issuer.serviceAccount("agents", "hr", AUDIENCE).subject(null).build()));
        JWTClaimsSet noExpiry = issuer.serviceAccount("agents", "hr", AUDIENCE).expirationTime(null).build();
        cases.put("expired (none given)", TestIssuer.sign(rsa, noExpiry));
        for (Map.Entry<String, String> c : cases.entrySet()) {
            RawHttp.Response r = legacy(c.getValue());
            String where = c.getKey() + " → " + r.status() + " " + r.headers().get("www-authenticate") + " " + r.body();
            assertEquals(401, r.status(), where);
            assertTrue(r.headers().get("www-authenticate").startsWith("Bearer resource_metadata=\""), where);
            assertTrue(r.headers().get("www-authenticate").contains("error=\"invalid_token\""), where);
            assertFalse(r.body().contains(c.getValue()) || r.headers().get("www-authenticate").contains(c.getValue()), where);
        }
        // HS256 "signed" with the RSA public key as the secret (key confusion): refused for its algorithm.
        SignedJWT hs = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("rsa-1").build(),
                issuer.serviceAccount("agents", "hr", AUDIENCE).build());
        hs.sign(new MACSigner(rsa.toPublicJWK().toRSAPublicKey().getEncoded()));
        RawHttp.Response confused = legacy(hs.serialize());
        assertEquals(401, confused.status(), confused.body());

        // A good token of an identity no rule names: authenticated, but nothing here is for it.
        RawHttp.Response nobody = legacy(token("agents", "intern"));
        assertEquals(403, nobody.status(), nobody.body());
        assertTrue(nobody.headers().get("www-authenticate").contains("error=\"insufficient_scope\""), nobody.headers().toString());

        String metrics = RawHttp.exchange(app.adminPort(), "GET", "/metrics", Map.of(), new byte[0]).body();
        for (String reason : List.of("audience", "expired", "not_yet_valid", "bad_signature", "unknown_key", "algorithm", "issuer",
                "malformed", "no_subject", "insufficient_scope")) {
            assertTrue(metrics.matches("(?s).*ragsearch_auth_failures_total\\{reason=\"" + reason + "\"} [1-9].*"), reason + "\n" + metrics);
        }
    }

    @Test
    void callsAreCountedByProjectAndSubject() throws Exception {
        try (McpToolClient hr = client(token("agents", "hr"))) {
            assertFalse(hr.call("list_documents", Map.of("project", "handbook-ko")).error());
        }
        String metrics = RawHttp.exchange(app.adminPort(), "GET", "/metrics", Map.of(), new byte[0]).body();
        assertTrue(metrics.matches("(?s).*ragsearch_project_calls_total\\{project=\"handbook-ko\",subject=\"system:serviceaccount:agents:hr\"} [1-9].*"),
                metrics);
    }

    /** A JWKS that cannot be fetched: not ready, saying why, and every token refused (503), never let through. */
    @Test
    void keysThatCannotBeFetchedMeanNotReadyAndRefused() throws Exception {
        try (TestIssuer silent = new TestIssuer()) {
            silent.publish(rsa);
            silent.down(true);
            try (SearchServerApp closed = SearchServerApp.start(config(silent, null, silent.jwksUrl()), Map.of())) {
                org.awaitility.Awaitility.await("the first fetch of the keys to fail").atMost(Duration.ofSeconds(60))
                        .until(() -> RawHttp.exchange(closed.adminPort(), "GET", "/readyz", Map.of(), new byte[0]).body()
                                .contains("HTTP 500"));
                RawHttp.Response ready = RawHttp.exchange(closed.adminPort(), "GET", "/readyz", Map.of(), new byte[0]);
                assertEquals(503, ready.status(), ready.body());
                assertTrue(ready.body().contains("auth: the issuer's keys (JWKS) could not be fetched"), ready.body());
                String good = TestIssuer.sign(rsa, silent.serviceAccount("agents", "hr", AUDIENCE).build());
                RawHttp.Response r = TestServersRaw.post(closed.mcpPort(), good);
                assertEquals(503, r.status(), r.body());
                assertEquals("5", r.headers().get("retry-after"));

                silent.down(false); // the issuer is back: the retry fetches the keys, the same token is served
                org.awaitility.Awaitility.await("the keys once the issuer answers").atMost(Duration.ofSeconds(60))
                        .until(() -> RawHttp.exchange(closed.adminPort(), "GET", "/readyz", Map.of(), new byte[0]).status() == 200);
                assertEquals(200, TestServersRaw.post(closed.mcpPort(), good).status());
            }
        }
    }

    /** A key rotated in after the last fetch: the unknown kid triggers one fetch, and the token is served. */
    @Test
    void aRotatedKeyIsFetchedOnFirstSight() throws Exception {
        RSAKey next = TestIssuer.rsa("rsa-rotated");
        issuer.publish(next);
        String token = TestIssuer.sign(next, issuer.serviceAccount("agents", "hr", AUDIENCE).build());
        RawHttp.Response r = legacy(token);
        // Refetches are rate-limited (30 s); another test's unknown kid may have used this window.
        if (r.status() == 401) {
            org.awaitility.Awaitility.await("the rate limit to let one refetch through").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofSeconds(2)).until(() -> legacy(token).status() == 200);
        } else {
            assertEquals(200, r.status(), r.body());
        }
    }

    private static List<String> projectNames(ToolAnswer a) {
        assertFalse(a.error(), a.text());
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> projects = (List<Map<String, Object>>) a.structured().get("projects");
        return projects.stream().map(p -> (String) p.get("name")).toList();
    }

    private static RawHttp.Response legacy(String token) throws Exception {
        return TestServersRaw.post(app.mcpPort(), token);
    }

    private static RawHttp.Response modern(String token, String method, String name, String params) throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"" + method + "\",\"params\":{" + params
                + (params.isEmpty() ? "" : ",") + "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        Map<String, String> headers = new LinkedHashMap<>(TestServers.JSON_HEADERS);
        headers.put("MCP-Protocol-Version", "2026-07-28");
        headers.put("Mcp-Method", method);
        if (name != null) {
            headers.put("Mcp-Name", name);
        }
        if (token != null) {
            headers.put("Authorization", "Bearer " + token);
        }
        return RawHttp.exchange(app.mcpPort(), "POST", "/mcp", headers, body.getBytes(StandardCharsets.UTF_8));
    }

    /** An initialize of the 2025 revisions, with a bearer token or none. */
    static final class TestServersRaw {
        static RawHttp.Response post(int port, String token) throws Exception {
            Map<String, String> headers = new LinkedHashMap<>(TestServers.JSON_HEADERS);
            if (token != null) {
                headers.put("Authorization", "Bearer " + token);
            }
            return RawHttp.exchange(port, "POST", "/mcp", headers, TestServers.INITIALIZE.getBytes(StandardCharsets.UTF_8));
        }
    }
}
