package io.ragsearch.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.contract.AdminEndpoints;
import io.ragsearch.contract.Environment;
import io.ragsearch.contract.verification.Verification;
import io.ragsearch.contract.verification.VerificationJson;
import com.nimbusds.jose.jwk.RSAKey;
import io.ragsearch.auth.TestIssuer;
import io.ragsearch.mcp.TestServers;
import io.ragsearch.mcpclient.McpToolClient;
import io.ragsearch.mcpclient.ToolAnswer;
import io.ragsearch.search.TestProjects;
import io.ragsearch.server.SearchServerApp;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A candidate verifying itself on its admin listener, as the operator asks it to: real servers
 * in this JVM, the checks run in process over real MCP against the candidate's own listener and
 * the baseline named in the POST, the answer read through the contract's codec.
 */
class VerificationEndpointIT {

    private static final Path EXAMPLE = Path.of(System.getProperty("user.dir")).resolve("../eval/verify-handbook.yaml").normalize();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    static Path dir;
    private static SearchServerApp baseline;
    private static SearchServerApp sameVersion;
    private static SearchServerApp strictGate;
    private static SearchServerApp badChecks;
    private static SearchServerApp noChecks;
    private static SearchServerApp guarded;
    private static SearchServerApp noList;
    private static final String TOKEN = "verification-token-7f3a9c";
    private static TestIssuer issuer;
    private static RSAKey issuerKey;
    private static SearchServerApp jwt;

    @BeforeAll
    static void start() throws Exception {
        baseline = start(english(null), Map.of());
        Map<String, String> checks = Map.of(Environment.VERIFY_CHECKS, EXAMPLE.toString(), Environment.VERIFY_BASELINES, "127.0.0.1");
        sameVersion = start(english(null), checks);
        strictGate = start(english(new ServerSettings.Gate(0.99)), checks);
        Path broken = Files.writeString(dir.resolve("broken.yaml"), "checks:\n  - {id: x, kind: nosuch}\n");
        badChecks = start(english(null), Map.of(Environment.VERIFY_CHECKS, broken.toString(), Environment.VERIFY_BASELINES, "127.0.0.1"));
        // A candidate pod as the operator starts it: a bearer token from the Secret, the allowed baselines named.
        guarded = start(english(null), Map.of(Environment.VERIFY_CHECKS, EXAMPLE.toString(), Environment.AUTH_TOKEN, TOKEN,
                Environment.VERIFY_BASELINES, "localhost:" + baseline.mcpPort() + ", 127.0.0.0/30"));
        noList = start(english(null), Map.of(Environment.VERIFY_CHECKS, EXAMPLE.toString(), Environment.AUTH_TOKEN, TOKEN));
        noChecks = baseline;
        // A candidate in mode jwt as the operator starts it: no static token; agents:hr may read handbook-ko only,
        // and no rule grants handbook-en to anyone, though the checks file searches it.
        issuer = new TestIssuer();
        issuerKey = TestIssuer.rsa("rsa-1");
        issuer.publish(issuerKey);
        ServerSettings.Auth auth = ServerSettings.Auth.EMPTY.withMode("jwt").withIssuer(issuer.issuer()).withAudiences(List.of("ragsearch"))
                .withAccess(List.of(ServerSettings.Access.EMPTY.withProjects(List.of("handbook-ko")).withServiceAccounts(List.of("agents:hr"))));
        jwt = SearchServerApp.start(ServerSettings.EMPTY.withServer(TestServers.server("127.0.0.1", 2, 32, null)).withAuth(auth)
                .withProjects(List.of(english(null), TestProjects.config("handbook-ko", TestProjects.sampleDirectory("ko"), null))),
                Map.of(Environment.VERIFY_CHECKS, EXAMPLE.toString(), Environment.VERIFY_BASELINES, "127.0.0.1"));
    }

    private static ServerSettings.Project english(ServerSettings.Gate gate) {
        return ServerSettings.Project.ofDirectory("handbook-en", TestProjects.sampleDirectory("en").toString()).withDescription("sample")
                .withGate(gate);
    }

    private static SearchServerApp start(ServerSettings.Project english, Map<String, String> env) throws Exception {
        return SearchServerApp.start(ServerSettings.EMPTY.withServer(TestServers.server("127.0.0.1", 2, 32, null)).withProjects(List.of(english, TestProjects.config("handbook-ko", TestProjects.sampleDirectory("ko"), null))), env);
    }

    @AfterAll
    static void stop() {
        for (SearchServerApp app : new SearchServerApp[] {baseline, sameVersion, strictGate, badChecks, guarded, noList, jwt}) {
            if (app != null) {
                app.close();
            }
        }
        if (issuer != null) {
            issuer.close();
        }
    }

    @Test
    void theSameVersionPassesAgainstTheRunningOne() throws Exception {
        Verification v = runToTheEnd(sameVersion, baseline);
        assertEquals(Verification.State.PASSED, v.state(), VerificationJson.write(v));
        assertEquals(11, v.passed());
        assertEquals(0, v.failed());
        assertEquals(mcp(baseline), v.baseline());
        assertTrue(v.candidate().endsWith(":" + sameVersion.mcpPort() + AdminEndpoints.MCP_PATH), v.candidate());
        assertNotNull(v.finishedAt());
        assertTrue(v.checks().stream().allMatch(r -> r.baseline() != null && r.candidate() != null));
    }

    @Test
    void aGateThatRefusesEverythingFailsWithItsChecksNamed() throws Exception {
        Verification v = runToTheEnd(strictGate, baseline);
        assertEquals(Verification.State.FAILED, v.state());
        Verification.Row sick = v.checks().stream().filter(r -> r.id().equals("sick-note")).findFirst().orElseThrow();
        assertFalse(sick.passed());
        assertEquals("rank 1 → refused", sick.difference());
        assertTrue(v.failures().stream().anyMatch(f -> f.startsWith("sick-note: ") && f.contains("no supporting documents")),
                v.failures().toString());
    }

    @Test
    void aBadChecksFileIsAFailedRunThatSaysWhy() throws Exception {
        Verification v = runToTheEnd(badChecks, baseline);
        assertEquals(Verification.State.FAILED, v.state());
        assertTrue(v.error().contains("broken.yaml"), v.error());
        assertEquals(List.of(), v.checks());
    }

    @Test
    void withoutAChecksFileBothMethodsAnswer404InWords() throws Exception {
        HttpResponse<String> post = post(noChecks, mcp(baseline));
        assertEquals(404, post.statusCode());
        assertTrue(post.body().contains(Environment.VERIFY_CHECKS), post.body());
        assertEquals(404, get(noChecks).statusCode());
    }

    @Test
    void aSecondStartWhileOneRunsIs409AndABadBaselineIs400() throws Exception {
        HttpResponse<String> bad = post(sameVersion, "ftp://nowhere");
        assertEquals(400, bad.statusCode(), bad.body());
        assertTrue(bad.body().contains("http(s) address"), bad.body());
        // The health check holds the run for about 3 s per side: long enough to ask again.
        HttpResponse<String> first = post(sameVersion, mcp(baseline));
        assertEquals(202, first.statusCode(), first.body());
        assertEquals(Verification.State.RUNNING, VerificationJson.parse(first.body()).state());
        HttpResponse<String> second = post(sameVersion, mcp(baseline));
        assertEquals(409, second.statusCode(), second.body());
        waitFinished(sameVersion);
        HttpResponse<String> put = HTTP.send(HttpRequest.newBuilder(admin(sameVersion)).PUT(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(405, put.statusCode());
    }

    @Test
    void anUnreachableBaselineShowsInEveryRowWhileTheCandidateIsStillJudged() throws Exception {
        Verification v = runToTheEnd(sameVersion, "http://127.0.0.1:9/mcp");
        assertNull(v.error());
        assertEquals(11, v.checks().size());
        assertTrue(v.checks().stream().allMatch(r -> "unreachable".equals(r.baseline())), VerificationJson.write(v));
        assertTrue(v.checks().stream().filter(r -> r.kind().equals("search")).allMatch(r -> r.passed() && !"unreachable".equals(r.candidate())),
                VerificationJson.write(v));
    }

    /**
     * Issue 21, high 1: the admin listener has no authentication, and a verification sends the
     * server's bearer token to its baseline. A baseline off the allowed list is refused before
     * anything is sent; the token never reaches it, whichever way the address is written.
     */
    @Test
    void aBaselineOffTheListIsRefusedAndNeverSeesTheToken() throws Exception {
        try (Listener attacker = Listener.on("127.0.0.9")) {
            for (String url : List.of(attacker.url(), attacker.url().replace("127.0.0.9", "2130706441"),
                    "http://127.0.0.1@127.0.0.9:" + attacker.port() + "/mcp", "http://localhost:" + attacker.port() + "/mcp",
                    "http://127.0.0.1:" + baseline.mcpPort() + "/mcp")) {
                // The last MCP address is allowed, but the admin address is the attacker's: refused as well.
                HttpResponse<String> r = postRaw(guarded, url, "http://127.0.0.9:" + attacker.port(), null);
                assertEquals(403, r.statusCode(), url + " " + r.body());
                assertTrue(r.body().contains("RAGSEARCH_VERIFY_BASELINES") || r.body().contains("user information"), r.body());
            }
            HttpResponse<String> none = postRaw(noList, "http://127.0.0.1:" + baseline.mcpPort() + "/mcp", null, null);
            assertEquals(403, none.statusCode(), none.body());
            assertTrue(none.body().contains("no baseline is allowed"), none.body());
            Thread.sleep(300);
            assertEquals(List.of(), attacker.authorizations(), "nothing reached a baseline off the list");
            assertEquals(0, attacker.requests());
        }
    }

    /** Issue 21, high 1: a browser's cross-site POST (it carries Origin) starts nothing; nor does any Origin read the admin port. */
    @Test
    void aRequestWithAnOriginIsRefused() throws Exception {
        HttpResponse<String> post = postRaw(guarded, "http://localhost:" + baseline.mcpPort() + "/mcp", null, "http://evil.example");
        assertEquals(403, post.statusCode(), post.body());
        for (String origin : List.of("null", "http://localhost:" + guarded.adminPort(), "http://127.0.0.1")) {
            for (String path : List.of(AdminEndpoints.VERIFICATION, AdminEndpoints.INFO, AdminEndpoints.CALIBRATION)) {
                HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + guarded.adminPort() + path))
                        .header("Origin", origin).GET().build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(403, r.statusCode(), path + " " + origin);
            }
        }
        HttpResponse<String> livez = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + guarded.adminPort()
                + AdminEndpoints.LIVEZ)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, livez.statusCode(), "probes carry no Origin and are served");
    }

    /**
     * Issue 21, high 1: an allowed baseline that fails answers with a body (20 KB, a secret in it);
     * the result says only the status, never the body. The token does go to an allowed baseline.
     */
    @Test
    void aFailingBaselineIsReportedByStatusNeverByItsBody() throws Exception {
        try (Listener failing = Listener.on("127.0.0.2")) {
            Verification v = runToTheEnd(guarded, failing.url(), "http://127.0.0.2:" + failing.port());
            String json = VerificationJson.write(v);
            assertFalse(json.contains(Listener.SECRET), "the baseline's body leaked into /verification");
            assertTrue(json.length() < 16_000, "the result stays small: " + json.length());
            assertTrue(json.contains("HTTP 500"), json);
            assertTrue(failing.requests() > 0);
            assertTrue(failing.authorizations().stream().allMatch(("Bearer " + TOKEN)::equals), failing.authorizations().toString());
            // The candidate itself was judged: its searches pass against its own listener.
            assertTrue(v.checks().stream().filter(r -> r.kind().equals("search")).allMatch(Verification.Row::passed), json);
        }
    }

    /**
     * Issue 30: in mode jwt the candidate has no token for its own port, so its checks are asked in
     * process as the verifier; they pass (projects no rule grants included), and none of them knocks
     * on /mcp (no refusal counted). It holds no credential a baseline would take: judged without one.
     */
    @Test
    void inModeJwtTheCandidateVerifiesItselfInProcessAndPasses() throws Exception {
        String before = metrics(jwt);
        Verification v = runToTheEnd(jwt, baseline);
        assertEquals(Verification.State.PASSED, v.state(), VerificationJson.write(v));
        assertEquals(11, v.passed());
        assertNull(v.baseline(), "no baseline in mode jwt");
        assertTrue(v.checks().stream().allMatch(r -> r.baseline() == null && r.difference() == null), VerificationJson.write(v));
        String after = metrics(jwt);
        assertEquals(counter(before, "ragsearch_auth_failures_total{reason=\"missing\"}"),
                counter(after, "ragsearch_auth_failures_total{reason=\"missing\"}"), "the run sent nothing to /mcp");
        assertTrue(counter(after, "ragsearch_project_calls_total{project=\"handbook-en\",subject=\"ragsearch-verification\"}") > 0, after);
    }

    /**
     * Issue 30: what the verifier uses is a Java object, not a credential: no request reaches its
     * scope. Without a token, or with a valid token whose subject is the verifier's name (or a group
     * or ServiceAccount look-alike of it), /mcp is refused; the one granted identity sees its project only.
     */
    @Test
    void noRequestCanActAsTheVerifier() throws Exception {
        assertEquals(401, mcpPost(jwt, null).statusCode());
        for (String subject : List.of("ragsearch-verification", "system:serviceaccount:ragsearch:verification", "-", "static-token")) {
            HttpResponse<String> r = mcpPost(jwt, signed(issuer.serviceAccount("x", "y", "ragsearch").subject(subject).build()));
            assertEquals(403, r.statusCode(), subject + ": " + r.body());
            assertTrue(r.headers().firstValue("WWW-Authenticate").orElse("").contains("insufficient_scope"), subject);
        }
        try (McpToolClient hr = new McpToolClient(mcp(jwt), signed(issuer.serviceAccount("agents", "hr", "ragsearch").build()),
                Duration.ofSeconds(60))) {
            ToolAnswer listed = hr.call("list_projects", Map.of());
            assertTrue(listed.text().contains("handbook-ko") && !listed.text().contains("handbook-en"), listed.text());
            assertTrue(hr.call("search", Map.of("project", "handbook-en", "query", "annual leave")).text().startsWith("unknown project"));
        }
    }

    private static String signed(com.nimbusds.jwt.JWTClaimsSet claims) {
        return TestIssuer.sign(issuerKey, claims);
    }

    /** A 2025-11-25 tools/call of list_projects, with this bearer token (or none): refusals come before any session. */
    private static HttpResponse<String> mcpPost(SearchServerApp app, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(mcp(app))).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").header("MCP-Protocol-Version", "2025-11-25")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"list_projects\",\"arguments\":{}}}"));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String metrics(SearchServerApp app) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.adminPort() + AdminEndpoints.METRICS)).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /** A counter's value in the Prometheus text, 0 when the series is absent. */
    private static double counter(String metrics, String series) {
        return metrics.lines().filter(l -> l.startsWith(series + " ")).mapToDouble(l -> Double.parseDouble(l.substring(series.length() + 1)))
                .findFirst().orElse(0);
    }

    /** A stand-in for whatever a baseline URL could point at: answers 500 with a large body holding a secret; counts what it receives. */
    private static final class Listener implements AutoCloseable {
        static final String SECRET = "internal-secret-4b1d";
        private final com.sun.net.httpserver.HttpServer server;
        private final List<String> authorizations = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final java.util.concurrent.atomic.AtomicInteger requests = new java.util.concurrent.atomic.AtomicInteger();

        private Listener(String address) throws java.io.IOException {
            server = com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress(address, 0), 16);
            byte[] body = (SECRET + " ").repeat(20_000 / (SECRET.length() + 1)).getBytes(StandardCharsets.UTF_8);
            server.createContext("/", exchange -> {
                requests.incrementAndGet();
                String auth = exchange.getRequestHeaders().getFirst("Authorization");
                if (auth != null) {
                    authorizations.add(auth);
                }
                exchange.getRequestBody().readAllBytes();
                exchange.getResponseHeaders().add("Content-Type", "text/plain");
                exchange.sendResponseHeaders(500, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            server.start();
        }

        static Listener on(String address) throws java.io.IOException {
            return new Listener(address);
        }

        int port() {
            return server.getAddress().getPort();
        }

        String url() {
            return "http://" + server.getAddress().getAddress().getHostAddress() + ":" + port() + "/mcp";
        }

        List<String> authorizations() {
            return List.copyOf(authorizations);
        }

        int requests() {
            return requests.get();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    private static HttpResponse<String> postRaw(SearchServerApp app, String baselineUrl, String adminUrl, String origin) throws Exception {
        URI uri = URI.create(admin(app) + "?" + AdminEndpoints.VERIFICATION_BASELINE + "="
                + URLEncoder.encode(baselineUrl, StandardCharsets.UTF_8)
                + (adminUrl == null ? "" : "&baselineAdmin=" + URLEncoder.encode(adminUrl, StandardCharsets.UTF_8)));
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.noBody());
        if (origin != null) {
            b.header("Origin", origin);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static synchronized Verification runToTheEnd(SearchServerApp candidate, String baselineUrl, String adminUrl) throws Exception {
        waitFinished(candidate);
        HttpResponse<String> started = postRaw(candidate, baselineUrl, adminUrl, null);
        assertEquals(202, started.statusCode(), started.body());
        return waitFinished(candidate);
    }

    private static synchronized Verification runToTheEnd(SearchServerApp candidate, SearchServerApp running) throws Exception {
        return runToTheEnd(candidate, mcp(running));
    }

    private static synchronized Verification runToTheEnd(SearchServerApp candidate, String baselineUrl) throws Exception {
        waitFinished(candidate);
        HttpResponse<String> started = post(candidate, baselineUrl);
        assertEquals(202, started.statusCode(), started.body());
        return waitFinished(candidate);
    }

    private static Verification waitFinished(SearchServerApp candidate) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = get(candidate);
            if (r.statusCode() == 404) {
                return null;
            }
            assertEquals(200, r.statusCode(), r.body());
            Verification v = VerificationJson.parse(r.body());
            if (v.finished()) {
                return v;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the verification did not finish in 120 s");
    }

    private static HttpResponse<String> post(SearchServerApp app, String baselineUrl) throws Exception {
        URI uri = URI.create(admin(app) + "?" + AdminEndpoints.VERIFICATION_BASELINE + "="
                + URLEncoder.encode(baselineUrl, StandardCharsets.UTF_8) + "&baselineAdmin="
                + URLEncoder.encode("http://127.0.0.1:" + baseline.adminPort(), StandardCharsets.UTF_8));
        return HTTP.send(HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(SearchServerApp app) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(admin(app)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI admin(SearchServerApp app) {
        return URI.create("http://127.0.0.1:" + app.adminPort() + AdminEndpoints.VERIFICATION);
    }

    private static String mcp(SearchServerApp app) {
        return "http://127.0.0.1:" + app.mcpPort() + AdminEndpoints.MCP_PATH;
    }
}
