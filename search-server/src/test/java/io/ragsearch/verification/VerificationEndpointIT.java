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
import io.ragsearch.mcp.TestServers;
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

    @BeforeAll
    static void start() throws Exception {
        baseline = start(english(null), Map.of());
        sameVersion = start(english(null), Map.of(Environment.VERIFY_CHECKS, EXAMPLE.toString()));
        strictGate = start(english(new ServerSettings.Gate(0.99)), Map.of(Environment.VERIFY_CHECKS, EXAMPLE.toString()));
        Path broken = Files.writeString(dir.resolve("broken.yaml"), "checks:\n  - {id: x, kind: nosuch}\n");
        badChecks = start(english(null), Map.of(Environment.VERIFY_CHECKS, broken.toString()));
        noChecks = baseline;
    }

    private static ServerSettings.Project english(ServerSettings.Gate gate) {
        return new ServerSettings.Project("handbook-en", "sample", new ServerSettings.Source(TestProjects.sampleDirectory("en").toString(), null, null),
                null, null, gate, null, null);
    }

    private static SearchServerApp start(ServerSettings.Project english, Map<String, String> env) throws Exception {
        return SearchServerApp.start(new ServerSettings(TestServers.server("127.0.0.1", 2, 32, null), null, null, null,
                List.of(english, TestProjects.config("handbook-ko", TestProjects.sampleDirectory("ko"), null))), env);
    }

    @AfterAll
    static void stop() {
        for (SearchServerApp app : new SearchServerApp[] {baseline, sameVersion, strictGate, badChecks}) {
            if (app != null) {
                app.close();
            }
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
