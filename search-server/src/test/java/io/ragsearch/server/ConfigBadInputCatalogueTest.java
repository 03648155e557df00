package io.ragsearch.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.ragsearch.config.ConfigException;
import io.ragsearch.config.ConfigLoader;
import io.ragsearch.config.ServerEnvironment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The configuration and environment half of the bad-input catalogue: configuration files and
 * environment values, each refused at startup with a message naming the setting — never a Java
 * class name, never the secret it was given — or, where legitimate, resolved. The same path the
 * server takes: {@link ConfigLoader}, environment overrides, {@link SettingsResolver}.
 */
class ConfigBadInputCatalogueTest {

    private static final Pattern LEAK = Pattern.compile("\\tat |Exception\\b|\\bjava\\.|tools\\.jackson|io\\.ragsearch|`[a-z]+\\.[a-z]");

    @TempDir
    static Path dir;

    /** A configuration text, the environment, and what the refusal must hold (null: it resolves). */
    private record Case(String name, String yaml, Map<String, String> env, String says, String never) {
    }

    private static final String PROJECT = "projects:\n  - {name: p, source: {directory: /nonexistent}}\n";

    private static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        List<String> wrongNumbers = List.of("x", "1.5", "[]", "{}", "99999999999", "\"\"", "true", "-1", "1e400", "\"5\"");
        for (String field : List.of("mcpPort", "adminPort", "toolThreads", "toolQueue", "maxInFlightRequests", "maxQueryChars")) {
            for (String v : wrongNumbers) {
                cases.add(new Case("server." + field + " = " + v, "server:\n  " + field + ": " + v + "\n" + PROJECT, Map.of(), field, null));
            }
        }
        // Issue 32: within an int but past what the pools can hold; toolQueue 2000000000 ended in an out-of-memory crash.
        for (String field : List.of("toolThreads", "toolQueue", "maxInFlightRequests")) {
            cases.add(new Case("server." + field + " = 2000000000", "server:\n  " + field + ": 2000000000\n" + PROJECT, Map.of(),
                    "server." + field + " must be at most ", null));
        }
        cases.add(new Case("rerank.concurrency = 2000000000", "rerank:\n  concurrency: 2000000000\n" + PROJECT, Map.of(),
                "rerank.concurrency (RAGSEARCH_RERANK_CONCURRENCY) must be at most 1024", null));
        for (String field : List.of("concurrency", "queueTimeoutMillis", "intraOpThreads")) {
            for (String v : wrongNumbers) {
                cases.add(new Case("rerank." + field + " = " + v, "rerank:\n  " + field + ": " + v + "\n" + PROJECT, Map.of(), field, null));
            }
        }
        for (String v : List.of("x", "1.5", "[]", "-1", "0", "99999999999")) {
            cases.add(new Case("database.pollSeconds = " + v, "database: {url: \"jdbc:postgresql://127.0.0.1:1/x\", pollSeconds: " + v + "}\n",
                    Map.of(), "pollSeconds", null));
        }
        for (String v : List.of("[1]", "{}", "1.5", "-1", "2", "x")) {
            cases.add(new Case("projects[0].gate.threshold = " + v, "projects:\n  - {name: p, source: {directory: /x}, gate: {threshold: " + v
                    + "}}\n", Map.of(), "threshold", null));
        }
        for (String name : List.of("\"\"", "UPPER", "\"a b\"", "\"../x\"", "\"" + "n".repeat(300) + "\"", "\"a\\nb\"", "[]")) {
            cases.add(new Case("project name " + cut(name), "projects:\n  - {name: " + name + ", source: {directory: /x}}\n", Map.of(),
                    "name", null));
        }
        for (String v : List.of("klingon", "[]", "1")) {
            cases.add(new Case("projects[0].language = " + v, "projects:\n  - {name: p, source: {directory: /x}, language: " + v + "}\n",
                    Map.of(), "language", null));
            cases.add(new Case("projects[0].retrieval = " + v, "projects:\n  - {name: p, source: {directory: /x}, retrieval: " + v + "}\n",
                    Map.of(), "retrieval", null));
        }
        cases.add(new Case("two projects with one name", "projects:\n  - {name: p, source: {directory: /x}}\n  - {name: p, source: "
                + "{directory: /y}}\n", Map.of(), "'p'", null));
        cases.add(new Case("a key written twice", "server:\n  mcpPort: 1\n  mcpPort: 2\n" + PROJECT, Map.of(), "mcpPort", null));
        cases.add(new Case("an unknown key", "server:\n  mcpPrt: 1\n" + PROJECT, Map.of(), "mcpPrt", null));
        cases.add(new Case("an unknown section", "sever: {}\n" + PROJECT, Map.of(), "sever", null));
        cases.add(new Case("a list at the top", "- a\n- b\n", Map.of(), "is not valid", null));
        cases.add(new Case("a bare word", "hello\n", Map.of(), "is not valid", null));
        cases.add(new Case("a tab indent", "server:\n\tmcpPort: 1\n", Map.of(), "is not valid", null));
        cases.add(new Case("only ---", "---\n", Map.of(), "holds no settings", null));
        cases.add(new Case("only a comment (issue 21: served the sample corpus)", "# nothing\n", Map.of(), "holds no settings", null));
        cases.add(new Case("two documents", PROJECT + "---\n" + PROJECT, Map.of(), "", null));

        // The environment
        for (String token : List.of("a", "abc\ndef-ghij", "has space inside", "1234567", "tok\u00e9n-long-enough", "\"quoted-token\"",
                "abcdefgh\u0000ij", "abc,defgh", "x=y=zzzzzz")) {
            cases.add(new Case("RAGSEARCH_AUTH_TOKEN " + cut(token.replace("\n", "\\n")), PROJECT, Map.of("RAGSEARCH_AUTH_TOKEN", token),
                    "RAGSEARCH_AUTH_TOKEN must be at least 8 characters", token.length() > 3 ? token : null));
        }
        cases.add(new Case("RAGSEARCH_AUTH_TOKEN blank", PROJECT, Map.of("RAGSEARCH_AUTH_TOKEN", "   "), "set but blank", null));
        for (String port : List.of("x", "1.5", "99999999999", "0x50", " 80 80")) {
            cases.add(new Case("RAGSEARCH_MCP_PORT " + port, PROJECT, Map.of("RAGSEARCH_MCP_PORT", port), "RAGSEARCH_MCP_PORT", null));
            cases.add(new Case("RAGSEARCH_ADMIN_PORT " + port, PROJECT, Map.of("RAGSEARCH_ADMIN_PORT", port), "RAGSEARCH_ADMIN_PORT", null));
        }
        for (String port : List.of("-1", "70000")) {
            cases.add(new Case("RAGSEARCH_MCP_PORT " + port, PROJECT, Map.of("RAGSEARCH_MCP_PORT", port),
                    "server.mcpPort must be 0..65535 (0 = any free port), got " + port, null));
            cases.add(new Case("RAGSEARCH_ADMIN_PORT " + port, PROJECT, Map.of("RAGSEARCH_ADMIN_PORT", port),
                    "server.adminPort must be 0..65535 (0 = any free port), got " + port, null));
        }
        for (String c : List.of("x", "-1", "0", "1.5")) {
            cases.add(new Case("RAGSEARCH_RERANK_CONCURRENCY " + c, PROJECT, Map.of("RAGSEARCH_RERANK_CONCURRENCY", c),
                    "RAGSEARCH_RERANK_CONCURRENCY", null));
        }
        for (String b : List.of("http://x", "a b", "user:pw@host", "10.0.0.0/99", "host:99999")) {
            cases.add(new Case("RAGSEARCH_VERIFY_BASELINES " + b, PROJECT, Map.of("RAGSEARCH_VERIFY_BASELINES", b),
                    "RAGSEARCH_VERIFY_BASELINES", "pw"));
        }
        // Legitimate values resolve.
        cases.add(new Case("a Secret's trailing newline on the token", PROJECT, Map.of("RAGSEARCH_AUTH_TOKEN", "abcdefgh-123\n"), null, null));
        cases.add(new Case("a token68 with padding", PROJECT, Map.of("RAGSEARCH_AUTH_TOKEN", "YWJjZGVmZ2g="), null, null));
        cases.add(new Case("ports at the edges", "server: {mcpPort: 65535, adminPort: 1}\n" + PROJECT, Map.of(), null, null));
        String jwt = "auth:\n  mode: jwt\n  issuer: https://kubernetes.default.svc.cluster.local\n  audiences: [ragsearch]\n"
                + "  access: [{projects: [p], serviceAccounts: [\"agents:hr\"]}]\n";
        cases.add(new Case("auth jwt resolves", jwt + PROJECT, Map.of(), null, null));
        cases.add(new Case("auth jwt and a static token too", jwt + PROJECT, Map.of("RAGSEARCH_AUTH_TOKEN", "s3cret-token-x"),
                "auth.mode jwt and RAGSEARCH_AUTH_TOKEN are both set", "s3cret-token-x"));
        cases.add(new Case("auth static without its token", "auth: {mode: static}\n" + PROJECT, Map.of(), "needs the token in RAGSEARCH_AUTH_TOKEN", null));
        for (String alg : List.of("none", "HS256", "HS384", "HS512", "RS1", "\"\"", "[]")) {
            cases.add(new Case("auth.algorithms " + alg, jwt + "  algorithms: [" + alg + "]\n" + PROJECT, Map.of(), "auth.algorithms", null));
        }
        cases.add(new Case("auth.mode OAuth", jwt.replace("mode: jwt", "mode: OAuth") + PROJECT, Map.of(), "auth.mode", null));
        cases.add(new Case("auth without mode", jwt.replace("  mode: jwt\n", "") + PROJECT, Map.of(), "auth.mode is required", null));
        cases.add(new Case("auth.issuer plain http", jwt.replace("https://kubernetes", "http://kubernetes") + PROJECT, Map.of(),
                "auth.issuer must be https", null));
        cases.add(new Case("auth.jwksUrl with a password", jwt + "  jwksUrl: https://u:pw@keys.example/jwks\n" + PROJECT, Map.of(),
                "auth.jwksUrl must be an https URL", null));
        cases.add(new Case("auth.audiences empty", jwt.replace("[ragsearch]", "[]") + PROJECT, Map.of(), "auth.audiences", null));
        cases.add(new Case("auth.access empty", jwt.replace("[{projects: [p], serviceAccounts: [\"agents:hr\"]}]", "[]") + PROJECT, Map.of(),
                "auth.access is empty", null));
        cases.add(new Case("auth.access rule naming nobody", jwt.replace(", serviceAccounts: [\"agents:hr\"]", "") + PROJECT, Map.of(),
                "names nobody", null));
        cases.add(new Case("auth.clockSkewSeconds 1.5", jwt + "  clockSkewSeconds: 1.5\n" + PROJECT, Map.of(), "clockSkewSeconds", null));
        cases.add(new Case("auth.clockSkewSeconds -1", jwt + "  clockSkewSeconds: -1\n" + PROJECT, Map.of(), "clockSkewSeconds", null));
        cases.add(new Case("auth unknown field", jwt + "  secret: x\n" + PROJECT, Map.of(), "secret", null));
        return cases;
    }

    @TestFactory
    Stream<DynamicTest> everyBadSettingStopsStartupWithAMessageNamingIt() {
        List<Case> all = cases();
        System.out.println("configuration bad-input catalogue: " + all.size() + " configurations and environments");
        return all.stream().map(c -> dynamicTest(c.name(), () -> {
            if (c.says() == null) {
                SettingsResolver.resolve(ConfigLoader.parse(c.yaml(), "c.yaml"), ServerEnvironment.read(c.env()));
                return;
            }
            ConfigException e = assertThrows(ConfigException.class, () -> SettingsResolver.resolve(
                    ConfigLoader.parse(c.yaml(), "c.yaml"), ServerEnvironment.read(c.env())), c.name());
            String where = c.name() + ": " + e.getMessage();
            assertTrue(e.getMessage().contains(c.says()), where);
            assertFalse(LEAK.matcher(e.getMessage()).find(), "leak: " + where);
            assertTrue(c.never() == null || !e.getMessage().contains(c.never()), "echoed: " + where);
            assertTrue(e.getMessage().length() < 2_000, "a message, not a dump: " + where);
        }));
    }

    /** Configuration files that are not files of text: each refused before it is parsed. */
    @TestFactory
    Stream<DynamicTest> configurationFilesThatAreNoConfigurationAreRefusedUnread() throws Exception {
        Map<String, Path> files = new LinkedHashMap<>();
        files.put("larger than 1024 KiB", Path.of("/dev/zero"));
        files.put("not UTF-8 text", Files.write(dir.resolve("latin.yaml"), new byte[] {'#', ' ', (byte) 0xE9, '\n'}));
        files.put("holds no settings", Files.writeString(dir.resolve("empty.yaml"), ""));
        files.put("larger than", Files.writeString(dir.resolve("big.yaml"), "# " + "x".repeat(2 << 20) + "\n"));
        Map<String, Path> more = new LinkedHashMap<>();
        more.put("a directory", dir);
        more.put("a missing file", dir.resolve("missing.yaml"));
        List<DynamicTest> tests = new ArrayList<>();
        files.forEach((says, file) -> tests.add(dynamicTest(file.getFileName() + " → " + says, () -> {
            ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(file));
            assertTrue(e.getMessage().contains(says), e.getMessage());
        })));
        more.forEach((name, file) -> tests.add(dynamicTest(name, () -> {
            ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(file));
            assertTrue(e.getMessage().startsWith("cannot read configuration file"), e.getMessage());
            assertFalse(LEAK.matcher(e.getMessage()).find(), e.getMessage());
        })));
        assertEquals(6, tests.size());
        return tests.stream();
    }

    private static String cut(String s) {
        return s.length() <= 30 ? s : s.substring(0, 30) + "…";
    }
}
