package io.ragsearch.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which server takes a request, and what an unsupported or mismatched version gets. */
class McpRequestRulesTest {

    private static final McpRequestRules RULES = new McpRequestRules(McpRequestRules.SUPPORTED_VERSIONS, 1 << 20);

    private static final String ACCEPT = "application/json, text/event-stream";

    private static McpRequestRules.Verdict check(String body, String header) {
        return check(body.getBytes(StandardCharsets.UTF_8), header);
    }

    /** The body with the media types a client must send, so the verdict is the message's. */
    private static McpRequestRules.Verdict check(byte[] body, String header) {
        return RULES.check(body, "application/json", ACCEPT, header);
    }

    private static boolean modern(McpRequestRules.Verdict v) {
        if (v instanceof McpRequestRules.Accept a) {
            return a.modern();
        }
        throw new AssertionError("refused: " + v);
    }

    private static McpRequestRules.Reject rejected(McpRequestRules.Verdict v) {
        if (v instanceof McpRequestRules.Reject r) {
            return r;
        }
        throw new AssertionError("accepted: " + v);
    }

    private static String withMeta(String version) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":"
                + "{\"io.modelcontextprotocol/protocolVersion\":\"" + version + "\"}}}";
    }

    @Test
    void aRevision2026ClaimGoesToTheNewServerAndEverythingElseToThe2025One() {
        assertTrue(modern(check(withMeta("2026-07-28"), "2026-07-28")));
        assertTrue(modern(check("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", "2026-07-28")),
                "the header alone: the new server says what _meta lacks");
        assertTrue(modern(check("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\"}", null)));
        assertFalse(modern(check("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-03-26\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}", null)),
                "initialize negotiates in its body");
        assertFalse(modern(check("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", null)), "no header: 2025-11-25");
        assertFalse(modern(check("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", "2025-06-18")));
    }

    @Test
    void anUnsupportedVersionIsMinus32022WithSupportedAndRequestedAndTheId() {
        for (String version : List.of("2025-03-26", "2024-11-05", "garbage")) {
            McpRequestRules.Reject r = rejected(check("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"ping\"}", version));
            assertEquals(400, r.status());
            assertEquals(-32022, r.code());
            assertEquals("a", r.id().asString());
            assertEquals(Map.of("supported", List.of("2026-07-28", "2025-11-25", "2025-06-18"), "requested", version), r.data());
        }
        McpRequestRules.Reject meta = rejected(check(withMeta("2099-01-01"), null));
        assertEquals(-32022, meta.code());
        assertEquals("2099-01-01", ((Map<?, ?>) meta.data()).get("requested"));
    }

    @Test
    void initializeParamsAreCheckedFor2025OnlyBecause2026RemovedTheMethod() {
        String wrongTyped = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"initialize\",\"params\":{\"protocolVersion\":5}}";
        McpRequestRules.Reject legacy = rejected(check(wrongTyped, null));
        assertEquals(-32602, legacy.code());
        assertEquals(7, legacy.id().asInt());
        // The 2026-07-28 server answers it as a method that no longer exists (HTTP 404, -32601): it must get there.
        assertTrue(modern(check(wrongTyped, "2026-07-28")));
    }

    @Test
    void aHeaderThatDoesNotMirrorMetaIsAMismatch() {
        McpRequestRules.Reject r = rejected(check(withMeta("v999"), "2026-07-28"));
        assertEquals(-32020, r.code());
        assertEquals(1, r.id().asInt());
    }

    @Test
    void theTransportGuardsChecksHoldForBothRevisions() {
        String longMethod = "x".repeat(McpRequestRules.MAX_METHOD_CHARS + 1);
        for (String header : List.of("2026-07-28", "2025-11-25", "2025-06-18")) {
            McpRequestRules.Reject meta = rejected(check("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\",\"params\":{\"_meta\":[]}}",
                    header));
            assertEquals(-32602, meta.code(), header);
            assertEquals(7, meta.id().asInt());
            McpRequestRules.Reject method = rejected(check("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"" + longMethod + "\"}", header));
            assertEquals(-32600, method.code(), header);
            assertTrue(method.message().length() < 200, "the name is not repeated: " + method.message());
            byte[] utf16 = withMeta(header).getBytes(StandardCharsets.UTF_16LE);
            assertEquals(-32700, rejected(check(utf16, header)).code(), header);
            byte[] secondBom = ("\uFEFF" + withMeta(header)).getBytes(StandardCharsets.UTF_8);
            assertEquals(-32700, rejected(check(secondBom, header)).code(), header);
        }
        McpRequestRules.Reject init = rejected(check("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":[],\"clientInfo\":{\"name\":\"t\"}}}", null));
        assertEquals(-32602, init.code());
        assertTrue(init.message().contains("capabilities"), init.message());
    }

    @Test
    void mediaTypeRefusalsEchoTheIdTheBodyCarried() {
        byte[] body = "{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"ping\"}".getBytes(StandardCharsets.UTF_8);
        McpRequestRules.Reject r = rejected(RULES.check(body, "text/plain", ACCEPT, null));
        assertEquals(415, r.status());
        assertEquals(42, r.id().asInt());
        McpRequestRules.Reject notAccepted = rejected(RULES.check(body, "application/json", "application/json", null));
        assertEquals(406, notAccepted.status());
        assertEquals(42, notAccepted.id().asInt());
        assertEquals(null, rejected(RULES.check("{\"id\":{}}".getBytes(StandardCharsets.UTF_8), "text/plain", ACCEPT, null)).id(),
                "an object is no id");
        assertEquals(null, rejected(RULES.check("not json".getBytes(StandardCharsets.UTF_8), "text/plain", ACCEPT, null)).id());
    }

    @Test
    void theRequestLineIsJudgedBeforeTheBodyAndAnOversizedBodyAfterIt() {
        McpRequestRules rules = new McpRequestRules(McpRequestRules.SUPPORTED_VERSIONS, 64);
        McpRequestRules.Reject get = (McpRequestRules.Reject) rules.checkRequestLine("GET", -1);
        assertEquals(405, get.status());
        assertEquals(-32600, get.code());
        assertEquals(Map.of("Allow", "POST"), get.headers(), "a 405 says which method is allowed");
        McpRequestRules.Reject declared = (McpRequestRules.Reject) rules.checkRequestLine("POST", 65);
        assertEquals(413, declared.status());
        assertEquals(Map.of(), declared.headers());
        assertEquals(McpRequestRules.ReadBody.INSTANCE, rules.checkRequestLine("POST", -1), "an unknown length: read the body");
        McpRequestRules.Reject read = rejected(rules.check(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\""
                + "y".repeat(64) + "\"}}").getBytes(StandardCharsets.UTF_8), "text/plain", ACCEPT, null));
        assertEquals(413, read.status(), "too large is judged before the media types");
        assertEquals(null, read.id(), "a body past the limit is not read for its id");
        assertEquals("request body exceeds 64 bytes", read.message());
    }

    @Test
    void anAcceptedMessageSaysItsMethodParamsAndId() {
        McpRequestRules.Accept a = (McpRequestRules.Accept) check("{\"jsonrpc\":\"2.0\",\"id\":\"r-1\",\"method\":\"tools/list\","
                + "\"params\":{\"cursor\":\"c\"}}", null);
        assertEquals("tools/list", a.method());
        assertEquals("c", a.params().path("cursor").asString());
        assertEquals("r-1", a.idText());
        McpRequestRules.Accept numbered = (McpRequestRules.Accept) check("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}", null);
        assertEquals("7", numbered.idText());
        assertTrue(numbered.params().isMissingNode());
        McpRequestRules.Accept notice = (McpRequestRules.Accept) check("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\"}", null);
        assertEquals(null, notice.id());
        assertEquals(null, notice.idText());
    }

    @Test
    void nestedWrongKindsInInitializeAreMinus32602NamingTheFieldAndTheKind() {
        for (InitializeShapes.Bad bad : InitializeShapes.BAD) {
            McpRequestRules.Reject r = rejected(check(bad.request(3), null));
            assertEquals(-32602, r.code(), bad.params());
            assertEquals(400, r.status(), bad.params());
            assertEquals(3, r.id().asInt());
            assertTrue(r.message().contains(bad.says()), bad.params() + " -> " + r.message());
            assertFalse(r.message().matches("(?s).*(Exception|\\$|tools\\.jackson|McpSchema|io\\.modelcontextprotocol|java\\.|"
                    + "Cannot construct|Source:).*"),
                    "no class names: " + r.message());
        }
        for (String fine : InitializeShapes.GOOD) {
            assertTrue(check(InitializeShapes.request(4, fine), null) instanceof McpRequestRules.Accept, fine);
        }
    }
}
