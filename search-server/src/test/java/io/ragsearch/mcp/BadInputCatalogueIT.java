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
        // Issue 21 lows: a hard link out of the corpus, a /dev/zero link, a loop, two files with one id.
        Path outside = Files.createDirectories(corpus.resolve("outside"));
        Files.createLink(evil.resolve("hardlinked.md"), Files.writeString(outside.resolve("secret.md"), "# Secret\n## Key\n"
                + OUTSIDE_MARKER + "\n"));
        Files.createSymbolicLink(evil.resolve("zero.md"), Path.of("/dev/zero"));
        Files.createSymbolicLink(evil.resolve("loop.md"), Path.of("loop.md"));
        Files.writeString(evil.resolve("dup.md"), "# Dup\n## Leave\nfrom dup.md\n");
        Files.writeString(evil.resolve("dup.txt"), "# Dup\n## Leave\nfrom dup.txt\n");
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
        List<Case> all = cases();
        System.out.println("server bad-input catalogue: " + all.size() + " inputs");
        return all.stream().map(c -> dynamicTest(c.name(), () -> run(c)));
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
        // Issue 32: a wrong kind below the top level reached the SDK (HTTP 200, -32603, Jackson's text and class names).
        for (InitializeShapes.Bad bad : InitializeShapes.BAD) {
            cases.add(post("initialize " + bad.says().substring(0, bad.says().indexOf(" must")), bad.request(1),
                    new RpcError(400, -32602, bad.says())));
        }
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

        // Issue 21 lows, each a regression row.
        cases.add(tool("top_k 1e308 (issue 21: a Jackson message)", "search", "{\"project\":\"handbook-en\",\"query\":\"leave\",\"top_k\":1e308}",
                new ToolError("invalid arguments for tool 'search': argument 'top_k' must be an integer 1–20, got 1.0E308")));
        cases.add(admin("a hard link out of the corpus is a load problem (issue 21: served)", "/info",
                new Plain(200, "hardlinked: a hard link with 1 name(s) outside the corpus directory (2 links, 1 inside), left out", null)));
        cases.add(tool("a hard link out of the corpus is not served", "search", "{\"project\":\"evil\",\"query\":\"outside marker\"}",
                new Ok("\"gate\"", OUTSIDE_MARKER)));
        cases.add(admin("a /dev/zero link is a load problem", "/info", new Plain(200, "zero.md: not a regular file", null)));
        cases.add(admin("a link loop is a load problem", "/info", new Plain(200, "loop.md: not a regular file", null)));
        cases.add(admin("two files with one id: a problem naming both (issue 21: served under one id)", "/info",
                new Plain(200, "dup.txt: the same document id 'dup' as dup.md, left out; dup.md is served", null)));
        cases.add(tool("of two files with one id the first in path order is served", "read_article",
                "{\"project\":\"evil\",\"document\":\"dup\",\"article\":\"Leave\"}", new Ok("from dup.md", "from dup.txt")));
        cases.add(tool("list_documents is paged (issue 21: 1.9 MB for 20,000 documents)", "list_documents",
                "{\"project\":\"evil\",\"limit\":2}", new Ok("\"nextCursor\"", null)));
        cases.add(tool("list_documents limit past the maximum page", "list_documents", "{\"project\":\"evil\",\"limit\":501}",
                new ToolError("argument 'limit' must be an integer 1–500, got 501")));
        for (String cursor : List.of("!!!", "a b", "_w", "%00", "\\u0000")) {
            cases.add(tool("list_documents cursor " + cursor, "list_documents", "{\"project\":\"evil\",\"cursor\":" + quote(cursor) + "}",
                    new ToolError("invalid cursor")));
        }
        // Issue 32: a made-up cursor was honoured (an empty page here; elsewhere a page from anywhere).
        for (String plain : List.of("zzzz", "rules", "1\u0000evil\u0000" + "0".repeat(16) + "\u0000rules",
                "1\u0000handbook-en\u0000" + "0".repeat(16) + "\u0000rules")) {
            cases.add(tool("list_documents cursor made up from " + plain.replace('\u0000', '|'), "list_documents",
                    "{\"project\":\"evil\",\"cursor\":\"" + java.util.Base64.getUrlEncoder().withoutPadding()
                            .encodeToString(plain.getBytes(StandardCharsets.UTF_8)) + "\"}", new ToolError("invalid cursor '")));
        }
        cases.addAll(families());
        return cases;
    }

    /** A file outside the corpus that a hard link inside it points at: its text must never be served. */
    private static final String OUTSIDE_MARKER = "outside marker zebra";

    /**
     * Generated rows: every tool argument × wrong kinds, out-of-range and edge values; identifiers
     * with Unicode and injection edges; the JSON-RPC envelope's members × wrong kinds; transport
     * header variants; admin paths, methods and Origins. One row = one input and its exact refusal.
     */
    private static List<Case> families() {
        List<Case> cases = new ArrayList<>();
        Map<String, Map<String, String>> validArgs = new LinkedHashMap<>();
        validArgs.put("search", Map.of("project", "\"handbook-en\"", "query", "\"leave\""));
        validArgs.put("list_documents", Map.of("project", "\"evil\""));
        validArgs.put("read_article", Map.of("project", "\"evil\"", "document", "\"rules\"", "article", "\"Leave\""));
        validArgs.put("list_projects", Map.of());
        Map<String, List<String>> stringArgs = Map.of("search", List.of("project", "query"), "list_documents", List.of("project", "cursor"),
                "read_article", List.of("project", "document", "article"), "list_projects", List.of());
        Map<String, List<String>> required = Map.of("search", List.of("project", "query"), "list_documents", List.of("project"),
                "read_article", List.of("project", "document", "article"), "list_projects", List.of());
        List<String> notStrings = List.of("5", "-1.5", "true", "false", "[]", "[\"handbook-en\"]", "{}", "{\"$ne\":null}", "1e308");
        for (String tool : validArgs.keySet()) {
            for (String arg : stringArgs.get(tool)) {
                for (String v : notStrings) {
                    cases.add(tool(tool + "." + arg + " = " + v, tool, args(validArgs.get(tool), arg, v),
                            new ToolError("argument '" + arg + "' must be a string, got ")));
                }
                cases.add(tool(tool + "." + arg + " = null", tool, args(validArgs.get(tool), arg, "null"),
                        new ToolError(required.get(tool).contains(arg) ? "argument '" + arg + "' is required"
                                : "argument '" + arg + "' must be a string, got null")));
            }
            for (String arg : required.get(tool)) {
                cases.add(tool(tool + " without " + arg, tool, args(validArgs.get(tool), arg, null),
                        new ToolError("argument '" + arg + "' is required")));
            }
            for (String extra : List.of("admin", "__proto__", "constructor", "", "k".repeat(1000), "프로젝트", "project ", "PROJECT",
                    "top-k", "topK")) {
                cases.add(tool(tool + " with an unknown argument '" + cut40(extra) + "'", tool, args(validArgs.get(tool), extra, "1"),
                        new ToolError("unknown argument '")));
            }
        }
        Map<String, String> intArgs = Map.of("search.top_k", "1–20", "list_documents.limit", "1–500");
        for (Map.Entry<String, String> e : intArgs.entrySet()) {
            String tool = e.getKey().substring(0, e.getKey().indexOf('.'));
            String arg = e.getKey().substring(tool.length() + 1);
            String max = e.getValue().substring(e.getValue().indexOf('–') + 1);
            for (String v : List.of("0", "-1", Integer.toString(Integer.parseInt(max) + 1), "1e308", "-1e308", "2.5", "1.55e1", "\"5\"",
                    "\"\"", "true", "[]", "{}", "[5]", "9223372036854775808", "-9223372036854775809", "100000000000000000000000000000",
                    "1e-300", "5.000001", "null", "2147483648", "-2147483648")) {
                cases.add(tool(tool + "." + arg + " = " + v, tool, args(validArgs.get(tool), arg, v),
                        new ToolError("argument '" + arg + "' must be an integer " + e.getValue() + ", got ")));
            }
            for (String v : List.of("1", max, "1.0", max + ".0", "1e0", "1.5e1")) {
                cases.add(tool(tool + "." + arg + " = " + v + " (in range)", tool, args(validArgs.get(tool), arg, v),
                        new Ok(tool.equals("search") ? "\"gate\"" : "\"documents\"", null)));
            }
        }
        List<String> odd = List.of("", " ", "\u0000", "\t", "\n", "é", "e\u0301", "😀", "\uFEFF", "\u202Ehandbook", "handbook-en ",
                " handbook-en", "HANDBOOK-EN", "handbook_en", "handbook-en\u0000", "x".repeat(100_000), "../handbook-en", "%00",
                "${jndi:ldap://127.0.0.1/a}", "'; DROP TABLE projects; --", "<script>alert(1)</script>", "\\u0000", "\uD800",
                "\uFFFF", "ＨＡＮＤＢＯＯＫ");
        for (String v : odd) {
            String shown = cut40(v.replaceAll("\\p{Cntrl}", "?"));
            cases.add(tool("search.project " + shown, "search", args(validArgs.get("search"), "project", quote(v)),
                    new ToolError("unknown project")));
            cases.add(tool("list_documents.project " + shown, "list_documents", args(validArgs.get("list_documents"), "project", quote(v)),
                    new ToolError("unknown project")));
            cases.add(tool("read_article.project " + shown, "read_article", args(validArgs.get("read_article"), "project", quote(v)),
                    new ToolError("unknown project")));
            cases.add(tool("read_article.document " + shown, "read_article", args(validArgs.get("read_article"), "document", quote(v)),
                    new ToolError("unknown document")));
            if (!v.isBlank() && !v.equals("\uFEFF")) { // a blank label: see articleLookupToleratesSpacingAndCase
                cases.add(tool("read_article.article " + shown, "read_article", args(validArgs.get("read_article"), "article", quote(v)),
                        new ToolError("unknown article")));
            }
        }
        for (String q : List.of("😀😀😀", "\u202Eevael launna", "annual\u200Bleave", "e\u0301te\u0301", "연차 휴가", "年假", "إجازة سنوية",
                "\uFEFFleave", "\uFFFF\uFFFE", "𝔩𝔢𝔞𝔳𝔢", "ｌｅａｖｅ", "LEAVE", "leave\r\nleave", "\\u0000", "a".repeat(1000),
                "leave ".repeat(166), "\"quoted\" leave", "+leave -days", "leave && days || parking", "제1조")) {
            cases.add(tool("query " + cut40(q.replaceAll("\\p{Cntrl}", "?")), "search",
                    args(validArgs.get("search"), "query", quote(q)), new Ok("\"gate\"", null)));
        }
        cases.add(tool("query of 1001 characters", "search", args(validArgs.get("search"), "query", quote("a".repeat(1001))),
                new ToolError("1000")));

        // The JSON-RPC envelope
        for (String v : List.of("\"2.0 \"", "\"2\"", "2", "null", "[]", "{}", "\"\"", "\"２.0\"", "\"2.00\"", "true")) {
            cases.add(post("jsonrpc " + v, "{\"jsonrpc\":" + v + ",\"id\":1,\"method\":\"ping\"}",
                    new RpcError(400, -32600, "\"jsonrpc\" must be \"2.0\"")));
        }
        for (String v : List.of("true", "null", "[]", "{}", "\"\"", "[\"ping\"]")) {
            cases.add(post("method " + v, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":" + v + "}", new RpcError(400, -32600, "\"method\" must be")));
        }
        for (String m : List.of("tools/lists", "TOOLS/LIST", "tools/call/", "resources/list", "prompts/list", "completion/complete",
                "roots/list", "rpc.discover", "__proto__", "constructor", "../ping", "도구/목록", "ping ", "m".repeat(128))) {
            cases.add(post("unknown method " + cut40(m), rpc(1, m, "{}"), new RpcError(200, -32601, "")));
        }
        for (String method : List.of("ping", "tools/list", "tools/call", "initialize")) {
            for (String params : List.of("[]", "\"x\"", "7", "true", "[1,2]")) {
                cases.add(post(method + " params " + params, rpc(1, method, params), new RpcError(400, -32602, "\"params\" must be an object")));
            }
        }
        for (String method : List.of("ping", "tools/list", "tools/call")) {
            for (String meta : List.of("5", "\"x\"", "[1]", "true")) {
                String params = method.equals("tools/call") ? "{\"name\":\"list_projects\",\"_meta\":" + meta + "}" : "{\"_meta\":" + meta + "}";
                cases.add(post(method + " _meta " + meta, rpc(1, method, params), new RpcError(400, -32602, "\"params._meta\" must be an object")));
            }
        }
        for (String id : List.of("9223372036854775808", "-9223372036854775809", "0.0", "[1]", "{\"a\":1}", "false", "1e3")) {
            cases.add(post("id " + id, rpcWithId(id, "ping", null), new RpcError(400, -32600, "\"id\" must be")));
        }
        for (String id : List.of("0", "9223372036854775807", "-9223372036854775808", "\"" + "i".repeat(256) + "\"", "\"é😀\"", "\"\"")) {
            cases.add(post("id " + cut40(id) + " (valid)", rpcWithId(id, "ping", null), new Ok("\"result\"", null)));
        }

        // Transport headers
        for (String type : List.of("application/xml", "application/json-patch+json", "text/json", "application/ld+json", "multipart/form-data",
                "application/x-www-form-urlencoded", "application/json; charset=utf-16", "application/json; charset=iso-8859-1", "*/*",
                "application", "json", "application/javascript")) {
            cases.add(post("Content-Type " + type, ping(1), headers("Content-Type", type), new RpcError(415, -32600, "Content-Type")));
        }
        for (String type : List.of("APPLICATION/JSON", "application/json;charset=utf-8", "Application/Json; Charset=UTF-8")) {
            cases.add(post("Content-Type " + type + " (accepted)", ping(1), headers("Content-Type", type), new Ok("\"result\"", null)));
        }
        for (String accept : List.of("text/event-stream", "text/html", "application/xml", "application/jsonx, text/event-stream",
                "application/json, text/plain")) {
            cases.add(post("Accept " + accept, ping(1), headers("Accept", accept), new RpcError(406, -32600, "Accept")));
        }
        for (String auth : List.of("Bearer", "Bearer ", "Basic dXNlcjpwYXNz", "Bearer " + TOKEN + "x", "Bearer " + TOKEN.substring(1),
                "Bearer " + TOKEN.toUpperCase(java.util.Locale.ROOT), "Token " + TOKEN, "Bearer " + "a".repeat(4000), "Bearer " + TOKEN + " extra",
                "Bearer \"" + TOKEN + "\"", "Digest username=x")) {
            cases.add(post("Authorization " + cut40(auth), ping(1), headers("Authorization", auth), new RpcError(401, -32001, "bearer token")));
        }
        for (String origin : List.of("http://evil.example", "https://localhost.evil.example", "http://localhost.evil.example:80",
                "http://127.0.0.1.nip.io", "file://", "chrome-extension://abcdef", "https://localhost", "HTTP://EVIL.EXAMPLE", "*",
                "http://localhost@evil.example", "http://127.0.0.2:1")) {
            cases.add(post("Origin " + origin, ping(1), headers("Origin", origin), new RpcError(403, -32600, "not allowed")));
        }
        for (String origin : List.of("http://localhost", "http://127.0.0.1:1234", "http://[::1]:8080", "HTTP://LOCALHOST:3000")) {
            cases.add(post("Origin " + origin + " (allowed)", ping(1), headers("Origin", origin), new Ok("\"result\"", null)));
        }
        for (String host : List.of("evil.example", "localhost.evil.example", "127.0.0.2:1", "0.0.0.0", "[::2]", "attacker:80",
                "127.0.0.1.nip.io:1")) {
            cases.add(post("Host " + host, ping(1), headers("Host", host), new RpcError(421, -32600, "not served here")));
        }
        for (String host : List.of("localhost", "127.0.0.1:9", "[::1]:1")) {
            cases.add(post("Host " + host + " (allowed)", ping(1), headers("Host", host), new Ok("\"result\"", null)));
        }
        for (String version : List.of("2024-11-05", "2025-13-01", " 2025-06-18x", "2025-06-18,2025-11-25", "latest", "2026-07-28x", "1")) {
            cases.add(post("MCP-Protocol-Version " + version, ping(1), headers("MCP-Protocol-Version", version),
                    new RpcError(400, -32022, "unsupported protocol version")));
        }

        // The admin listener
        for (String path : List.of("/", "/LIVEZ", "/livez/", "/livez.json", "/info/", "/info.json", "/metricsx", "/calibration/",
                "/verification/x", "/readyz/x", "/startupz/x", "/mcp", "/admin", "/.env", "/actuator/health", "/favicon.ico",
                "/robots.txt", "/Info", "/livez%20")) {
            cases.add(admin("admin path " + path, path, new Plain(404, "not found", null)));
        }
        // A path parameter is not part of the path (servlet rules): /info;x is /info, nothing else.
        cases.add(admin("admin path /info;x is /info", "/info;x", new Plain(200, "\"version\"", null)));
        for (String path : List.of("/livez", "/readyz", "/startupz", "/info", "/metrics", "/calibration", "/verification")) {
            for (String origin : List.of("http://evil.example", "null", "http://localhost:1")) {
                cases.add(new Case("admin " + path + " with Origin " + origin, true, "GET", path, Map.of("Origin", origin), new byte[0],
                        new Plain(403, "", null)));
            }
        }
        return cases;
    }

    /** Arguments as a JSON object: the valid ones with {@code name} set to {@code json} (null: removed). */
    private static String args(Map<String, String> valid, String name, String json) {
        Map<String, String> a = new LinkedHashMap<>(valid);
        if (json == null) {
            a.remove(name);
        } else {
            a.put(name, json);
        }
        StringBuilder b = new StringBuilder("{");
        a.forEach((k, v) -> b.append(b.length() > 1 ? "," : "").append(quote(k)).append(':').append(v));
        return b.append('}').toString();
    }

    private static String cut40(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "…(" + s.length() + ")";
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
