package io.ragsearch.fuzz;

import io.ragsearch.config.ServerEnvironment;
import java.util.Map;
import io.ragsearch.server.SettingsResolver;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.config.ConfigException;
import io.ragsearch.config.ConfigLoader;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.corpus.Article;
import io.ragsearch.corpus.ArticleSplitter;
import io.ragsearch.corpus.CorpusLoader;
import io.ragsearch.corpus.Document;
import io.ragsearch.corpus.FrontMatter;
import io.ragsearch.mcp.McpRequestRules;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Property-based fuzzing of the parsers that read untrusted text: corpus files (front matter
 * and article splitting), the server configuration, and the /mcp transport guard. Inputs are
 * built from the fragments those parsers react to (headings, article labels, YAML fences,
 * JSON-RPC members) mixed with arbitrary text, so the search reaches their branches rather than
 * only their first check. Every property states what must hold for any input; a failure jqwik
 * finds is kept as a regression case in {@code FuzzRegressionsTest}.
 */
class UntrustedTextFuzzTest {

    private static final ArticleSplitter WITH_ADDENDA = new ArticleSplitter(true);
    private static final McpRequestRules RULES = new McpRequestRules(McpRequestRules.SUPPORTED_VERSIONS, 1 << 20);
    /** A well-formed request, so the headers decide. */
    private static final byte[] PING = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}".getBytes(StandardCharsets.UTF_8);

    @Provide
    Arbitrary<String> documents() {
        Arbitrary<String> line = Arbitraries.oneOf(
                Arbitraries.of("# ", "## ", "##### ", "####### ", "#", "---", "제1조", "제2조(목적)", "##### 제3조의2 (정의)",
                        "## 부칙", "부칙 <제1호>", "Article 4 (Scope)", "Section 2. Terms", "삭제", "[deleted]", "title: x",
                        "제목: 규정", "  ", "\t", "(", ")", "#####", "\uFEFF", "\r"),
                Arbitraries.strings().ofMaxLength(40),
                Arbitraries.strings().withChars(" #\t제조의()").ofMaxLength(300),
                Arbitraries.strings().all().ofMaxLength(20));
        return line.list().ofMaxSize(40).map(lines -> String.join("\n", lines));
    }

    @Property
    void anyDocumentSplitsIntoWellFormedArticles(@ForAll("documents") String text) throws CharacterCodingException {
        List<String> problems = new ArrayList<>();
        Document doc = new CorpusLoader(false).parse("doc", text.getBytes(StandardCharsets.UTF_8), problems);
        assertNotNull(doc.title());
        Set<String> labels = new HashSet<>();
        for (Article a : doc.articles()) {
            assertNotNull(a.label());
            assertNotNull(a.title());
            assertNotNull(a.body());
            assertTrue(labels.add(a.label()), "labels are unique within a document: " + a.label());
        }
        FrontMatter front = FrontMatter.parse(text);
        assertNotNull(front.body());
        // Articles are cut out of the text, never made up: every body line is a line of the document.
        // (A first invariant, "including addenda never loses articles", was wrong: numbered articles
        // after the addenda heading rightly replace a split on headings; jqwik found that in 20,000 tries.)
        for (Article a : WITH_ADDENDA.split(front.body(), "t")) {
            for (String line : a.body().split("\n")) {
                assertTrue(front.body().contains(line), "invented line: " + line);
            }
        }
    }

    @Property
    void anyBytesAreADocumentOrNotUtf8(@ForAll byte[] bytes) {
        try {
            new CorpusLoader(false).parse("doc", bytes, new ArrayList<>());
        } catch (CharacterCodingException e) {
            // reported as "not UTF-8 text, left out"
        }
    }

    @Provide
    Arbitrary<String> configs() {
        Arbitrary<String> fragment = Arbitraries.of("server:\n", "  mcpPort: 8080\n", "  mcpPort: -1\n", "  mcpPort: 99999999999\n",
                "  bindAddress: x\n", "projects:\n", "  - name: a\n", "    source: {directory: d}\n", "    source: {database: true}\n",
                "    gate: {threshold: 2}\n", "rerank:\n", "  concurrency: 0\n", "  concurrency: 1.5\n", "database:\n",
                "  url: jdbc:x\n", "&a x: 1\n", "b: *a\n", "- \n", ": :\n", "{", "]", "\t", "models: {embedding: {builtin: q}}\n",
                "  allowedOrigins: [\"*\"]\n", "---\n", "!!binary x\n", "? complex\n");
        return Arbitraries.oneOf(fragment, Arbitraries.strings().ofMaxLength(20)).list().ofMaxSize(12)
                .map(parts -> String.join("", parts));
    }

    @Property
    void anyConfigurationIsAcceptedOrAConfigException(@ForAll("configs") String yaml) {
        try {
            ServerSettings config = ConfigLoader.parse(yaml, "fuzz.yaml");
            // Validation and resolution: whatever passes the rules must resolve into settings without another error.
            SettingsResolver.resolve(config, ServerEnvironment.read(Map.of()));
        } catch (ConfigException e) {
            assertNotNull(e.getMessage());
        }
    }

    @Provide
    Arbitrary<byte[]> messages() {
        Arbitrary<String> member = Arbitraries.of("\"jsonrpc\":\"2.0\"", "\"jsonrpc\":\"1.0\"", "\"jsonrpc\":2", "\"id\":1", "\"id\":\"a\"",
                "\"id\":null", "\"id\":{}", "\"id\":1.5", "\"id\":99999999999999999999999", "\"method\":\"ping\"",
                "\"method\":\"tools/call\"", "\"method\":\"notifications/initialized\"", "\"method\":7", "\"params\":{}",
                "\"params\":[]", "\"params\":null", "\"params\":{\"name\":\"search\",\"arguments\":{}}",
                "\"params\":{\"name\":\"search\",\"arguments\":[]}", "\"result\":{}", "\"error\":{}");
        Arbitrary<String> object = member.list().ofMaxSize(6).map(m -> "{" + String.join(",", m) + "}");
        Arbitrary<String> noise = Arbitraries.strings().withChars("{}[]\",:0123456789.-e \\u\"abc").ofMaxLength(60);
        Arbitrary<String> nested = Arbitraries.integers().between(1, 3000).map(n -> "[".repeat(n) + "]".repeat(n));
        return Arbitraries.oneOf(object, noise, nested, Arbitraries.strings().all().ofMaxLength(30))
                .map(s -> s.getBytes(StandardCharsets.UTF_8));
    }

    @Property
    void theGuardAnswersEveryBodyAndPassesOnlyWellFormedRequests(@ForAll("messages") byte[] body) {
        McpRequestRules.Verdict verdict = RULES.check(McpRequestRules.withoutBom(body), "application/json",
                "application/json, text/event-stream", McpRequestRules.LEGACY_VERSIONS.get(0));
        if (verdict instanceof McpRequestRules.Reject r) {
            assertTrue(r.status() >= 400 && r.status() < 500, "a client error is never a 5xx: " + r);
            assertTrue(List.of(-32700, -32600, -32602, McpRequestRules.UNSUPPORTED_VERSION, McpRequestRules.HEADER_MISMATCH)
                    .contains(r.code()), r.toString());
            assertTrue(r.message().length() < 300, r.message());
        } else {
            String text = new String(body, StandardCharsets.UTF_8);
            assertTrue(text.contains("\"jsonrpc\":\"2.0\"") && text.contains("\"method\""), "passed: " + text);
        }
    }

    @Property
    void theGuardAnswersEveryHeaderCombination(@ForAll("headerValues") String method, @ForAll("headerValues") String type,
                                               @ForAll("headerValues") String accept, @ForAll("headerValues") String version,
                                               @ForAll long length) {
        if (RULES.checkRequestLine(method, length) instanceof McpRequestRules.Reject r) {
            assertTrue(r.status() >= 400 && r.status() < 500 && r.message().length() < 300, r.toString());
            return;
        }
        assertEquals("POST", method);
        if (RULES.check(PING, type, accept, version) instanceof McpRequestRules.Reject r) {
            assertTrue(r.status() >= 400 && r.status() < 500 && r.message().length() < 300, r.toString());
        }
    }

    @Provide
    Arbitrary<String> headerValues() {
        return Arbitraries.oneOf(Arbitraries.of("POST", "GET", "application/json", "application/json; charset=utf-8",
                "application/jsonx", "application/json, text/event-stream", "2025-06-18", "garbage", ";;;", "charset=",
                "application/json;charset=\"UTF-8\""), Arbitraries.strings().ofMaxLength(30)).injectNull(0.1);
    }
}
