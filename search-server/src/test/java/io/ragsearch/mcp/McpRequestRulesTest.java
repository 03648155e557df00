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

    private static McpRequestRules.Verdict check(String body, String header) {
        return RULES.check(body.getBytes(StandardCharsets.UTF_8), header);
    }

    private static String withMeta(String version) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":"
                + "{\"io.modelcontextprotocol/protocolVersion\":\"" + version + "\"}}}";
    }

    @Test
    void aRevision2026ClaimGoesToTheNewServerAndEverythingElseToThe2025One() {
        assertTrue(check(withMeta("2026-07-28"), "2026-07-28").accepted().modern());
        assertTrue(check("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", "2026-07-28").accepted().modern(),
                "the header alone: the new server says what _meta lacks");
        assertTrue(check("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\"}", null).accepted().modern());
        assertFalse(check("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-03-26\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}", null).accepted().modern(),
                "initialize negotiates in its body");
        assertFalse(check("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", null).accepted().modern(), "no header: 2025-11-25");
        assertFalse(check("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", "2025-06-18").accepted().modern());
    }

    @Test
    void anUnsupportedVersionIsMinus32022WithSupportedAndRequestedAndTheId() {
        for (String version : List.of("2025-03-26", "2024-11-05", "garbage")) {
            McpRequestRules.Rejection r = check("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"ping\"}", version).rejection().orElseThrow();
            assertEquals(400, r.status());
            assertEquals(-32022, r.code());
            assertEquals("a", r.id().asString());
            assertEquals(Map.of("supported", List.of("2026-07-28", "2025-11-25", "2025-06-18"), "requested", version), r.data());
        }
        McpRequestRules.Rejection meta = check(withMeta("2099-01-01"), null).rejection().orElseThrow();
        assertEquals(-32022, meta.code());
        assertEquals("2099-01-01", ((Map<?, ?>) meta.data()).get("requested"));
    }

    @Test
    void initializeParamsAreCheckedFor2025OnlyBecause2026RemovedTheMethod() {
        String wrongTyped = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"initialize\",\"params\":{\"protocolVersion\":5}}";
        McpRequestRules.Rejection legacy = check(wrongTyped, null).rejection().orElseThrow();
        assertEquals(-32602, legacy.code());
        assertEquals(7, legacy.id().asInt());
        // The 2026-07-28 server answers it as a method that no longer exists (HTTP 404, -32601): it must get there.
        assertTrue(check(wrongTyped, "2026-07-28").accepted().modern());
    }

    @Test
    void aHeaderThatDoesNotMirrorMetaIsAMismatch() {
        McpRequestRules.Rejection r = check(withMeta("v999"), "2026-07-28").rejection().orElseThrow();
        assertEquals(-32020, r.code());
        assertEquals(1, r.id().asInt());
    }

    @Test
    void theTransportGuardsChecksHoldForBothRevisions() {
        String longMethod = "x".repeat(McpRequestRules.MAX_METHOD_CHARS + 1);
        for (String header : List.of("2026-07-28", "2025-11-25", "2025-06-18")) {
            McpRequestRules.Rejection meta = check("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\",\"params\":{\"_meta\":[]}}",
                    header).rejection().orElseThrow();
            assertEquals(-32602, meta.code(), header);
            assertEquals(7, meta.id().asInt());
            McpRequestRules.Rejection method = check("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"" + longMethod + "\"}", header)
                    .rejection().orElseThrow();
            assertEquals(-32600, method.code(), header);
            assertTrue(method.message().length() < 200, "the name is not repeated: " + method.message());
            byte[] utf16 = withMeta(header).getBytes(StandardCharsets.UTF_16LE);
            assertEquals(-32700, RULES.check(utf16, header).rejection().orElseThrow().code(), header);
            byte[] secondBom = ("\uFEFF" + withMeta(header)).getBytes(StandardCharsets.UTF_8);
            assertEquals(-32700, RULES.check(secondBom, header).rejection().orElseThrow().code(), header);
        }
        McpRequestRules.Rejection init = check("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":[],\"clientInfo\":{\"name\":\"t\"}}}", null).rejection().orElseThrow();
        assertEquals(-32602, init.code());
        assertTrue(init.message().contains("capabilities"), init.message());
    }

    @Test
    void mediaTypeRefusalsEchoTheIdTheBodyCarried() {
        byte[] body = "{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"ping\"}".getBytes(StandardCharsets.UTF_8);
        McpRequestRules.Rejection r = RULES.checkMediaTypes("text/plain", "application/json, text/event-stream",
                RULES.readableId(body)).orElseThrow();
        assertEquals(415, r.status());
        assertEquals(42, r.id().asInt());
        assertEquals(null, RULES.readableId("{\"id\":{}}".getBytes(StandardCharsets.UTF_8)), "an object is no id");
        assertEquals(null, RULES.readableId("not json".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void nestedWrongKindsInInitializeAreMinus32602NamingTheFieldAndTheKind() {
        for (InitializeShapes.Bad bad : InitializeShapes.BAD) {
            McpRequestRules.Rejection r = check(bad.request(3), null).rejection()
                    .orElseThrow(() -> new AssertionError("accepted: " + bad.params()));
            assertEquals(-32602, r.code(), bad.params());
            assertEquals(400, r.status(), bad.params());
            assertEquals(3, r.id().asInt());
            assertTrue(r.message().contains(bad.says()), bad.params() + " -> " + r.message());
            assertFalse(r.message().matches("(?s).*(Exception|\\$|tools\\.jackson|McpSchema|io\\.modelcontextprotocol|java\\.|"
                    + "Cannot construct|Source:).*"),
                    "no class names: " + r.message());
        }
        for (String fine : InitializeShapes.GOOD) {
            assertTrue(check(InitializeShapes.request(4, fine), null).rejection().isEmpty(), fine);
        }
    }
}
