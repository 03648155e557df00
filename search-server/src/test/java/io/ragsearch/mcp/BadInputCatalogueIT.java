package io.ragsearch.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.search.TestProjects;
import io.ragsearch.server.SearchServerApp;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The bad-input catalogue: every bad or odd input of issue 13 (and the black-box review's
 * regressions) sent to a real server over HTTP. Each case asserts the exact status and a JSON-RPC
 * or tool error with a useful message; every answer is checked for stack traces, class names and
 * file-system paths, and /livez must answer after each case. docs/security.md lists the rules.
 */
class BadInputCatalogueIT {

    private static final String TOKEN = "catalogue-token";
    private static final String DB_PASSWORD = "hunter2-db-secret";
    private static final ObjectMapper JSON = JsonMapper.builder().build();
    /** What a leak looks like: a stack frame, a JVM or library class name, a path on this machine. */
    private static final Pattern LEAK = Pattern.compile(
            "\\tat |\\bat [a-z]+\\.[a-z]+\\.|Exception\\b|\\bjava\\.|\\bjakarta\\.|org\\.eclipse|io\\.ragsearch|"
                    + "io\\.modelcontextprotocol|reactor\\.|tools\\.jackson|/work/|/tmp/|/home/|/root/|/proc/|/sys/fs|Jetty\\(");
    /** No honest answer to these inputs is bigger; a search answer with uncut titles was 405 KB. */
    private static final int MAX_ANSWER_BYTES = 64 * 1024;

    @TempDir
    static Path corpus;
    private static SearchServerApp app;

    @BeforeAll
    static void start() throws Exception {
        Path evil = Files.createDirectories(corpus.resolve("evil"));
        Files.writeString(evil.resolve("rules.md"), "# House rules\n## Leave\nAnnual leave is 25 days a year.\n");
        Files.createSymbolicLink(evil.resolve("environ.md"), Path.of("/proc/self/environ"));
        Files.createSymbolicLink(evil.resolve("passwd.md"), Path.of("/etc/passwd"));
        // The review's cubic-regex heading: it held startup for 53 s.
        Files.writeString(evil.resolve("heading.md"), "## a" + " ".repeat(4000) + "x\nbody\n");
        Files.writeString(evil.resolve("long-title.md"), "---\ntitle: " + "Title ".repeat(70_000) + "\n---\n## Parking\n"
                + "Parking leave spaces are free for staff.\n");
        // Issue 21: entries that each stopped startup, or were skipped without a word; now each is a load problem.
        Files.writeString(evil.resolve("huge-label.md"), "##### 제1조 (목적)\n유지.\n##### 제" + "1".repeat(40_000) + "조 (범위)\n사라짐.\n");
        Files.createSymbolicLink(evil.resolve("dangling.md"), Path.of("no-such-file.md"));
        new ProcessBuilder("mkfifo", evil.resolve("pipe.md").toString()).start().waitFor();
        ServerSettings.Server server = ServerSettings.Server.EMPTY.withBindAddress("127.0.0.1").withMcpPort(0).withAdminPort(0);
        ServerSettings config = ServerSettings.EMPTY.withServer(server)
                .withDatabase(ServerSettings.Database.at("jdbc:postgresql://127.0.0.1:1/rag?user=rag&password=" + DB_PASSWORD)
                        .withUser("rag").withPollSeconds(60))
                .withProjects(List.of(TestProjects.config("handbook-en", TestProjects.sampleDirectory("en"), null),
                        TestProjects.config("evil", evil, "lexical")));
        app = SearchServerApp.start(config, Map.of("RAGSEARCH_AUTH_TOKEN", TOKEN));
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    /** What a case must get back. */
    private sealed interface Expect permits RpcError, ToolError, Ok, Plain, NoServerHeader {
    }

    /** A 200 without a Server header (it named Jetty and its version). */
    private record NoServerHeader() implements Expect {
    }

    /** A JSON-RPC error object with this code and a message holding {@code says}. */
    private record RpcError(int status, int code, String says) implements Expect {
    }

    /** A tools/call result with isError true and a message holding {@code says}. */
    private record ToolError(String says) implements Expect {
    }

    /** A JSON-RPC result (for tools/call: isError false); {@code says} must appear in it, {@code never} must not. */
    private record Ok(String says, String never) implements Expect {
    }

    /** An admin answer: status, text it holds and text it must not. */
    private record Plain(int status, String says, String never) implements Expect {
    }

    private record Case(String name, boolean admin, String method, String path, Map<String, String> headers, byte[] body,
                        Expect expect) {
    }

    @TestFactory
    Stream<DynamicTest> everyBadInputGetsAClearAnswerAndTheServerStaysUp() {
        return cases().stream().map(c -> dynamicTest(c.name(), () -> run(c)));
    }

    private static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        // JSON and JSON-RPC envelope
        cases.add(post("malformed JSON", "{\"jsonrpc\":", new RpcError(400, -32700, "not valid JSON")));
        cases.add(post("empty body", "", new RpcError(400, -32700, "the body is empty")));
        cases.add(post("whitespace body", "  \n ", new RpcError(400, -32700, "the body is empty")));
        cases.add(post("batch", "[" + ping(1) + "," + ping(2) + "]", new RpcError(400, -32600, "batches are not supported")));
        cases.add(post("empty batch", "[]", new RpcError(400, -32600, "batches are not supported")));
        cases.add(post("a bare string", "\"ping\"", new RpcError(400, -32600, "one JSON-RPC message object")));
        cases.add(post("null", "null", new RpcError(400, -32600, "one JSON-RPC message object")));
        cases.add(post("100k-deep array nesting", "[".repeat(100_000) + "]".repeat(100_000), new RpcError(400, -32700, "nesting")));
        cases.add(post("100k-deep object nesting", "{\"a\":".repeat(100_000) + "1" + "}".repeat(100_000),
                new RpcError(400, -32700, "nesting")));
        cases.add(post("deep params", rpc(1, "tools/call", "{\"name\":\"search\",\"arguments\":" + "[".repeat(200) + "]".repeat(200) + "}"),
                new RpcError(400, -32700, "nesting")));
        cases.add(post("no method", "{\"jsonrpc\":\"2.0\",\"id\":1}", new RpcError(400, -32600, "\"method\" must be")));
        cases.add(post("method is a number", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":7}", new RpcError(400, -32600, "\"method\" must be")));
        cases.add(post("no jsonrpc", "{\"id\":1,\"method\":\"ping\"}", new RpcError(400, -32600, "\"jsonrpc\" must be \"2.0\"")));
        cases.add(post("jsonrpc 1.0", "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}", new RpcError(400, -32600, "\"2.0\"")));
        cases.add(post("jsonrpc as number", "{\"jsonrpc\":2.0,\"id\":1,\"method\":\"ping\"}", new RpcError(400, -32600, "\"2.0\"")));
        cases.add(post("missing id on a request", "{\"jsonrpc\":\"2.0\",\"method\":\"tools/list\"}",
                new RpcError(400, -32600, "needs an \"id\"")));
        for (String id : List.of("{}", "[]", "null", "1.5", "123456789012345678901234567890", "true", "\"" + "i".repeat(300) + "\"")) {
            cases.add(post("id " + (id.length() > 20 ? id.substring(0, 12) + "…" : id), rpcWithId(id, "ping", null),
                    new RpcError(400, -32600, "\"id\" must be")));
        }
        cases.add(post("no Server header on /mcp", ping(1), new NoServerHeader()));
        cases.add(admin("no Server header on the admin port", "/livez", new NoServerHeader()));
        cases.add(post("string id", rpcWithId("\"abc\"", "ping", null), new Ok("\"abc\"", null)));
        cases.add(post("negative id", rpcWithId("-5", "ping", null), new Ok("-5", null)));
        for (String params : List.of("[]", "\"x\"", "null", "7")) {
            cases.add(post("params " + params, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":" + params + "}",
                    new RpcError(400, -32602, "\"params\" must be an object")));
        }
        cases.add(post("tools/call without params", rpc(1, "tools/call", null), new RpcError(400, -32602, "needs params")));
        cases.add(post("tools/call without a name", rpc(1, "tools/call", "{\"arguments\":{}}"), new RpcError(400, -32602, "needs params")));
        for (String args : List.of("[]", "\"project\"", "5")) {
            cases.add(post("tools/call arguments " + args, rpc(1, "tools/call", "{\"name\":\"list_projects\",\"arguments\":" + args + "}"),
                    new RpcError(400, -32602, "\"arguments\" must be an object")));
        }
        cases.add(post("a JSON-RPC response sent to the server", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}",
                new RpcError(400, -32600, "takes no JSON-RPC responses")));
        cases.add(post("a JSON-RPC error sent to the server", "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1,\"message\":\"x\"}}",
                new RpcError(400, -32600, "takes no JSON-RPC responses")));
        cases.add(post("unknown method", rpc(1, "resources/explode", "{}"), new RpcError(200, -32601, "")));
        cases.add(post("a 200 KB method name (issue 21: echoed whole)", rpc(1, "m".repeat(200_000), "{}"),
                new RpcError(400, -32600, "longer than 128 characters")));
        cases.add(postBytes("UTF-8 BOM before a valid message", concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
                ping(1).getBytes(StandardCharsets.UTF_8)), JSON_HEADERS(), new Ok("\"result\"", null)));
        cases.add(postBytes("invalid UTF-8", concat("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"x\":\"".getBytes(StandardCharsets.UTF_8),
                new byte[] {(byte) 0xC3, (byte) 0x28, '"', '}'}), JSON_HEADERS(), new RpcError(400, -32700, "not UTF-8 text")));
        // Issue 21, medium 6: each of these reached the SDK and came back as a 400 or 500 with a stack trace.
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        cases.add(postBytes("two UTF-8 BOMs", concat(concat(bom, bom), ping(1).getBytes(StandardCharsets.UTF_8)), JSON_HEADERS(),
                new RpcError(400, -32700, "more than one byte-order mark")));
        cases.add(postBytes("UTF-16LE with its BOM", concat(new byte[] {(byte) 0xFF, (byte) 0xFE}, ping(1).getBytes(StandardCharsets.UTF_16LE)),
                JSON_HEADERS(), new RpcError(400, -32700, "not UTF-8 text")));
        cases.add(postBytes("UTF-16BE without a BOM", ping(1).getBytes(StandardCharsets.UTF_16BE), JSON_HEADERS(),
                new RpcError(400, -32700, "not valid JSON")));
        cases.add(postBytes("UTF-32BE", ping(1).getBytes(java.nio.charset.Charset.forName("UTF-32BE")), JSON_HEADERS(),
                new RpcError(400, -32700, "not valid JSON")));
        cases.add(post("_meta a number", rpc(1, "tools/list", "{\"_meta\":5}"), new RpcError(400, -32602, "\"params._meta\" must be an object")));
        cases.add(post("_meta a string in tools/call", rpc(1, "tools/call", "{\"name\":\"list_projects\",\"_meta\":\"x\"}"),
                new RpcError(400, -32602, "\"params._meta\" must be an object")));
        cases.add(post("_meta an array", rpc(1, "ping", "{\"_meta\":[1]}"), new RpcError(400, -32602, "\"params._meta\" must be an object")));
        cases.add(post("initialize without params", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}",
                new RpcError(400, -32602, "initialize needs params")));
        cases.add(post("initialize with a numeric protocolVersion", rpc(1, "initialize",
                "{\"protocolVersion\":5,\"capabilities\":{},\"clientInfo\":{\"name\":\"x\",\"version\":\"1\"}}"),
                new RpcError(400, -32602, "a string \"protocolVersion\"")));
        cases.add(post("initialize with capabilities as text", rpc(1, "initialize",
                "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":\"all\",\"clientInfo\":{\"name\":\"x\",\"version\":\"1\"}}"),
                new RpcError(400, -32602, "\"capabilities\" as an object")));
        cases.add(post("initialize with clientInfo a number", rpc(1, "initialize",
                "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":7}"),
                new RpcError(400, -32602, "\"clientInfo\" as an object")));
        cases.add(post("initialize with a numeric client name", rpc(1, "initialize",
                "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":1,\"version\":\"1\"}}"),
                new RpcError(400, -32602, "a string \"name\"")));
        cases.add(post("a well-formed initialize", rpc(1, "initialize",
                "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"x\",\"version\":\"1\"},\"_meta\":{}}"),
                new Ok("\"result\"", null)));
        cases.add(postBytes("a raw NUL byte in a string", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"x\":\"a\u0000b\"}"
                .getBytes(StandardCharsets.UTF_8), JSON_HEADERS(), new RpcError(400, -32700, "not valid JSON")));

        // Transport headers and methods
        cases.add(post("Content-Type text/plain", ping(1), headers("Content-Type", "text/plain"), new RpcError(415, -32600, "Content-Type")));
        cases.add(post("Content-Type application/jsonx", ping(1), headers("Content-Type", "application/jsonx"),
                new RpcError(415, -32600, "Content-Type")));
        cases.add(post("Content-Type with latin-1", ping(1), headers("Content-Type", "application/json; charset=latin1"),
                new RpcError(415, -32600, "Content-Type")));
        cases.add(post("Content-Type missing", ping(1), headers("Content-Type", null), new RpcError(415, -32600, "Content-Type")));
        cases.add(post("Content-Type with utf-8", ping(1), headers("Content-Type", "application/json; charset=UTF-8"),
                new Ok("\"result\"", null)));
        cases.add(post("Accept missing", ping(1), headers("Accept", null), new RpcError(406, -32600, "Accept")));
        cases.add(post("Accept without event-stream", ping(1), headers("Accept", "application/json"), new RpcError(406, -32600, "Accept")));
        for (String method : List.of("GET", "PUT", "DELETE", "PATCH")) {
            cases.add(new Case(method + " /mcp", false, method, "/mcp", JSON_HEADERS(), new byte[0],
                    new RpcError(405, -32600, "POST only")));
        }
        cases.add(post("MCP-Protocol-Version garbage", ping(1), headers("MCP-Protocol-Version", "garbage"),
                new RpcError(400, -32022, "supported: 2026-07-28, 2025-11-25, 2025-06-18")));
        cases.add(post("MCP-Protocol-Version 1999-01-01", ping(1), headers("MCP-Protocol-Version", "1999-01-01"),
                new RpcError(400, -32022, "unsupported protocol version '1999-01-01'")));
        cases.add(post("MCP-Protocol-Version of 2 KB", ping(1), headers("MCP-Protocol-Version", "v".repeat(2_000)),
                new RpcError(400, -32022, "unsupported protocol version 'vvvv")));
        cases.add(post("MCP-Protocol-Version 2025-03-26 (dropped: its batches are not served)", ping(1),
                headers("MCP-Protocol-Version", "2025-03-26"), new RpcError(400, -32022, "requires JSON-RPC batches")));
        cases.add(post("a 100 KB header", ping(1), headers("X-Filler", "f".repeat(100_000)),
                new RpcError(431, -32600, "HTTP 431 Request Header Fields Too Large")));
        cases.add(post("MCP-Protocol-Version 2025-06-18", ping(1), headers("MCP-Protocol-Version", "2025-06-18"), new Ok("\"result\"", null)));
        cases.add(postBytes("20 MB body", ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"x\":\"" + "x".repeat(20 << 20) + "\"}")
                .getBytes(StandardCharsets.UTF_8), JSON_HEADERS(), new RpcError(413, -32600, "exceeds")));

        // DNS rebinding and auth
        cases.add(post("foreign Host", ping(1), headers("Host", "attacker.example:8080"), new RpcError(421, -32600, "not served here")));
        cases.add(post("foreign Origin", ping(1), headers("Origin", "http://attacker.example"), new RpcError(403, -32600, "not allowed")));
        cases.add(post("Origin null", ping(1), headers("Origin", "null"), new RpcError(403, -32600, "not allowed")));
        cases.add(post("local Origin", ping(1), headers("Origin", "http://localhost:5173"), new Ok("\"result\"", null)));
        cases.add(post("missing bearer token", ping(1), headers("Authorization", null), new RpcError(401, -32001, "missing bearer token")));
        cases.add(post("wrong bearer token", ping(1), headers("Authorization", "Bearer not-it"), new RpcError(401, -32001, "invalid bearer token")));
        cases.add(post("token without Bearer", ping(1), headers("Authorization", TOKEN), new RpcError(401, -32001, "missing bearer token")));

        // Tool arguments
        cases.add(tool("unknown tool", "drop_tables", "{}",
                new ToolError("unknown tool 'drop_tables'; this server's tools: list_projects, search, list_documents, read_article")));
        cases.add(tool("unknown project", "search", "{\"project\":\"nope\",\"query\":\"leave\"}", new ToolError("unknown project 'nope'")));
        cases.add(tool("query is a number", "search", "{\"project\":\"handbook-en\",\"query\":5}", new ToolError("")));
        cases.add(tool("project null", "search", "{\"project\":null,\"query\":\"leave\"}", new ToolError("")));
        cases.add(tool("query missing", "search", "{\"project\":\"handbook-en\"}", new ToolError("query")));
        cases.add(tool("extra field", "search", "{\"project\":\"handbook-en\",\"query\":\"leave\",\"admin\":true}", new ToolError("")));
        for (String k : List.of("0", "-1", "1000000000000", "\"5\"", "2.5", "null")) {
            cases.add(tool("top_k " + k, "search", "{\"project\":\"handbook-en\",\"query\":\"leave\",\"top_k\":" + k + "}", new ToolError("")));
        }
        for (String q : List.of("*:*", "title:x AND", "a*", "~", "\"unbalanced", "(((", "leave^999 OR -", "\\\\", "/regex/")) {
            cases.add(tool("Lucene syntax " + q, "search", "{\"project\":\"handbook-en\",\"query\":" + quote(q) + "}", new Ok("\"gate\"", null)));
        }
        cases.add(tool("NUL and control characters in a query", "search",
                "{\"project\":\"handbook-en\",\"query\":\"annual\\u0000leave\\u0007\"}", new Ok("\"gate\"", null)));
        cases.add(tool("unpaired surrogate in a query", "search", "{\"project\":\"handbook-en\",\"query\":\"leave \\ud800 days\"}",
                new Ok("\"gate\"", null)));
        cases.add(tool("query of whitespace", "search", "{\"project\":\"handbook-en\",\"query\":\"   \"}", new ToolError("query is empty")));
        cases.add(tool("10,000 repeated tokens", "search", "{\"project\":\"handbook-en\",\"query\":\"" + "leave ".repeat(10_000) + "\"}",
                new ToolError("the limit is 1000")));
        StringBuilder distinct = new StringBuilder();
        for (int i = 0; distinct.length() < 996; i++) {
            distinct.append(Integer.toString(i + 36, 36)).append(' ');
        }
        // 332 distinct two-character terms in under 1000 characters: once past Lucene's clause limit, an "internal error".
        cases.add(tool("hundreds of distinct terms", "search", "{\"project\":\"handbook-en\",\"query\":\"" + distinct.toString().strip()
                + "\"}", new Ok("\"gate\"", null)));
        cases.add(tool("repeated tokens within the limit", "search", "{\"project\":\"handbook-en\",\"query\":\"" + "leave ".repeat(160) + "\"}",
                new Ok("\"gate\"", null)));
        for (String id : List.of("../../etc/passwd", "/etc/passwd", "%2e%2e%2f%2e%2e%2fetc%2fpasswd", "..\\\\..\\\\windows", "passwd",
                "environ", "rules/../../../etc/passwd")) {
            cases.add(tool("document id " + id, "read_article", "{\"project\":\"evil\",\"document\":" + quote(id) + ",\"article\":\"1\"}",
                    new ToolError("unknown document")));
        }
        cases.add(tool("100 KB document id", "read_article", "{\"project\":\"evil\",\"document\":\"" + "d".repeat(100_000)
                + "\",\"article\":\"1\"}", new ToolError("(100000 characters)")));
        cases.add(tool("unknown article", "read_article", "{\"project\":\"evil\",\"document\":\"rules\",\"article\":\"" + "9".repeat(5000) + "\"}",
                new ToolError("unknown article")));
        cases.add(tool("a search does not reach a linked /etc/passwd", "search", "{\"project\":\"evil\",\"query\":\"root bin daemon nologin\"}",
                new Ok("\"gate\"", "root:x:0")));
        cases.add(tool("the pathological heading was indexed", "list_documents", "{\"project\":\"evil\"}", new Ok("heading", "environ")));
        cases.add(tool("document titles are cut in list_documents", "list_documents", "{\"project\":\"evil\"}",
                new Ok("long-title", "Title ".repeat(100))));
        cases.add(tool("hit titles are cut", "search", "{\"project\":\"evil\",\"query\":\"parking leave spaces\"}",
                new Ok("Title Title", "Title ".repeat(100))));

        // Admin listener
        cases.add(admin("/infox is not /info", "/infox", new Plain(404, "not found", null)));
        cases.add(admin("a 40 KB heading label is its article's load problem", "/info",
                new Plain(200, "huge-label: article '제111", "1".repeat(200))));
        cases.add(tool("the rest of that file is served", "read_article", "{\"project\":\"evil\",\"document\":\"huge-label\",\"article\":\"제1조\"}",
                new Ok("유지", null)));
        cases.add(admin("a dangling link is a load problem", "/info", new Plain(200, "dangling.md: not a regular file", null)));
        cases.add(admin("a FIFO is a load problem, never opened", "/info", new Plain(200, "pipe.md: not a regular file", null)));
        cases.add(admin("/livez/extra", "/livez/extra", new Plain(404, "not found", null)));
        cases.add(admin("/info hides the database password", "/info", new Plain(200, "password=***", DB_PASSWORD)));
        cases.add(admin("/info says the database is unreachable", "/info", new Plain(200, "\"connected\":false", null)));
        cases.add(admin("/calibration shows no host path", "/calibration", new Plain(-1, "", "/sys/fs/cgroup")));
        cases.add(admin("/metrics carries the database state", "/metrics", new Plain(200, "ragsearch_database_reachable 0", null)));
        return cases;
    }

    private static void run(Case c) throws Exception {
        RawHttp.Response r = RawHttp.exchange(c.admin() ? app.adminPort() : app.mcpPort(), c.method(), c.path(), c.headers(), c.body());
        String where = c.name() + " → " + r.status() + " " + cut(r.body());
        assertFalse(LEAK.matcher(r.body()).find(), "leak: " + where);
        assertTrue(r.body().length() <= MAX_ANSWER_BYTES, "answer of " + r.body().length() + " characters: " + where);
        if (c.expect() instanceof RpcError e) {
            assertEquals(e.status(), r.status(), where);
            JsonNode error = JSON.readTree(r.body()).get("error");
            assertNotNull(error, where);
            assertEquals(e.code(), error.get("code").asInt(), where);
            assertTrue(error.get("message").asString().contains(e.says()), where);
        } else if (c.expect() instanceof ToolError e) {
            assertEquals(200, r.status(), where);
            JsonNode json = JSON.readTree(r.body());
            JsonNode result = json.get("result");
            if (result != null) {
                assertTrue(result.get("isError").asBoolean(), where);
                String text = result.get("content").get(0).get("text").asString();
                assertTrue(text.contains(e.says()), where);
                assertTrue(text.length() > 10, "a useful message: " + where);
            } else {
                // The SDK answers an unknown tool or a schema violation as a JSON-RPC error: clean, with a message.
                JsonNode error = json.get("error");
                assertNotNull(error, where);
                assertEquals(-32602, error.get("code").asInt(), where);
                assertTrue(error.get("message").asString().contains(e.says()) && error.get("message").asString().length() > 10, where);
            }
        } else if (c.expect() instanceof Ok e) {
            assertEquals(200, r.status(), where);
            JsonNode json = JSON.readTree(r.body());
            assertNotNull(json.get("result"), where);
            JsonNode isError = json.get("result").get("isError");
            assertTrue(isError == null || !isError.asBoolean(), where);
            assertTrue(r.body().contains(e.says()), where);
            assertTrue(e.never() == null || !r.body().contains(e.never()), where);
        } else if (c.expect() instanceof NoServerHeader) {
            assertEquals(200, r.status(), where);
            assertFalse(r.headers().containsKey("server"), "Server header: " + r.headers().get("server"));
        } else if (c.expect() instanceof Plain e) {
            assertTrue(e.status() < 0 || e.status() == r.status(), where);
            assertTrue(r.body().contains(e.says()), where);
            assertTrue(e.never() == null || !r.body().contains(e.never()), where);
        }
        RawHttp.Response live = RawHttp.exchange(app.adminPort(), "GET", "/livez", Map.of(), new byte[0]);
        assertEquals(200, live.status(), "/livez after " + c.name());
    }

    // --- building cases ---

    private static Map<String, String> JSON_HEADERS() {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Content-Type", "application/json");
        h.put("Accept", "application/json, text/event-stream");
        h.put("Authorization", "Bearer " + TOKEN);
        return h;
    }

    /** The standard headers with one changed (null: removed). */
    private static Map<String, String> headers(String name, String value) {
        Map<String, String> h = JSON_HEADERS();
        if (value == null) {
            h.remove(name);
        } else {
            h.put(name, value);
        }
        return h;
    }

    private static Case post(String name, String body, Expect expect) {
        return post(name, body, JSON_HEADERS(), expect);
    }

    private static Case post(String name, String body, Map<String, String> headers, Expect expect) {
        return postBytes(name, body.getBytes(StandardCharsets.UTF_8), headers, expect);
    }

    private static Case postBytes(String name, byte[] body, Map<String, String> headers, Expect expect) {
        return new Case(name, false, "POST", "/mcp", headers, body, expect);
    }

    private static Case tool(String name, String tool, String arguments, Expect expect) {
        return post(name, rpc(1, "tools/call", "{\"name\":\"" + tool + "\",\"arguments\":" + arguments + "}"), expect);
    }

    private static Case admin(String name, String path, Expect expect) {
        return new Case(name, true, "GET", path, Map.of(), new byte[0], expect);
    }

    private static String ping(int id) {
        return rpc(id, "ping", null);
    }

    private static String rpc(int id, String method, String params) {
        return rpcWithId(Integer.toString(id), method, params);
    }

    private static String rpcWithId(String id, String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\"" + (params == null ? "" : ",\"params\":" + params) + "}";
    }

    private static String quote(String s) {
        return JSON.writeValueAsString(s);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static String cut(String s) {
        return s.length() <= 300 ? s : s.substring(0, 300) + "…";
    }
}
