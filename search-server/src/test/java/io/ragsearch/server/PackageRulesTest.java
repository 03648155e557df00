package io.ragsearch.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The server's package tree (docs/packages.md), checked over the compiled classes: every
 * reference a class file holds to another io.ragsearch package (constant pool: class names,
 * descriptors, signatures) is allowed by the table below, and the packages form no cycle.
 */
class PackageRulesTest {

    /** What each package may use besides itself, the JDK and libraries; contract is everyone's. */
    private static final Map<String, Set<String>> ALLOWED = Map.ofEntries(
            Map.entry("metrics", Set.of()),
            Map.entry("telemetry", Set.of("contract")),
            Map.entry("corpus", Set.of()),
            Map.entry("fetch", Set.of()),
            Map.entry("config", Set.of("contract")),
            Map.entry("embed", Set.of("contract")),
            Map.entry("query", Set.of("corpus")),
            Map.entry("index", Set.of("corpus", "embed", "query")),
            Map.entry("admin", Set.of("contract", "metrics")),
            Map.entry("rerank", Set.of("contract", "embed", "metrics", "telemetry")),
            Map.entry("calibrate", Set.of("contract", "metrics", "rerank")),
            Map.entry("search", Set.of("contract", "corpus", "embed", "index", "query", "rerank", "telemetry")),
            Map.entry("auth", Set.of("search")),
            Map.entry("store", Set.of("corpus", "embed", "index")),
            Map.entry("refresh", Set.of("corpus", "embed", "index", "rerank", "search", "store")),
            Map.entry("mcp", Set.of("auth", "contract", "corpus", "embed", "index", "mcpclient", "metrics", "rerank", "search", "telemetry")),
            Map.entry("mcpclient", Set.of()),
            Map.entry("eval", Set.of("corpus", "index", "mcpclient", "query", "search")),
            Map.entry("verification", Set.of("contract", "eval", "mcpclient")),
            Map.entry("server", Set.of("admin", "auth", "calibrate", "config", "contract", "corpus", "embed", "index", "mcp", "mcpclient", "metrics",
                    "refresh", "rerank", "search", "store", "telemetry", "verification")),
            Map.entry("cli", Set.of("calibrate", "config", "contract", "corpus", "embed", "eval", "fetch", "index", "mcp", "mcpclient", "rerank",
                    "search", "server", "store", "verification")));

    private static final Pattern REFERENCE = Pattern.compile("io/ragsearch/([a-z]+)/");
    private static Map<String, Set<String>> uses;

    @BeforeAll
    static void readClasses() throws Exception {
        Path classes = Path.of(SearchServerApp.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertTrue(Files.isDirectory(classes.resolve("io/ragsearch")), "compiled classes at " + classes);
        uses = new TreeMap<>();
        try (Stream<Path> files = Files.walk(classes.resolve("io/ragsearch"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String from = classes.resolve("io/ragsearch").relativize(f).getName(0).toString();
                Set<String> to = uses.computeIfAbsent(from, k -> new TreeSet<>());
                for (String text : utf8Constants(f)) {
                    Matcher m = REFERENCE.matcher(text);
                    while (m.find()) {
                        if (!m.group(1).equals(from)) {
                            to.add(m.group(1));
                        }
                    }
                }
            }
        }
    }

    @Test
    void everyPackageUsesOnlyWhatItsRuleAllows() {
        List<String> broken = new ArrayList<>();
        uses.forEach((from, to) -> {
            Set<String> allowed = ALLOWED.get(from);
            if (allowed == null) {
                broken.add("package " + from + " has no rule (add it here and to docs/packages.md)");
                return;
            }
            to.stream().filter(p -> !allowed.contains(p)).forEach(p -> broken.add(from + " -> " + p));
        });
        assertEquals(List.of(), broken);
    }

    @Test
    void thePackagesFormNoCycle() {
        for (String start : uses.keySet()) {
            Set<String> seen = new HashSet<>();
            List<String> todo = new ArrayList<>(uses.get(start));
            while (!todo.isEmpty()) {
                String p = todo.remove(todo.size() - 1);
                assertTrue(!p.equals(start), "a cycle through " + start);
                if (seen.add(p)) {
                    todo.addAll(uses.getOrDefault(p, Set.of()));
                }
            }
        }
    }

    @Test
    void theServersJarHoldsNoDevelopmentTools() {
        assertTrue(!uses.containsKey("bench"), "the bench lives in search-bench");
        assertTrue(uses.values().stream().noneMatch(s -> s.contains("bench")));
        assertTrue(uses.containsKey("server") && uses.get("server").contains("refresh"), "the check sees references");
        assertThrowsClassNotFound("org.knowm.xchart.XYChart");
    }

    private static void assertThrowsClassNotFound(String name) {
        try {
            Class.forName(name);
            throw new AssertionError(name + " is on the server's classpath: XChart belongs to search-bench");
        } catch (ClassNotFoundException expected) {
            // not a dependency of the server
        }
    }

    /** The UTF-8 entries of a class file's constant pool: the contract's reader, shared with the operator's check. */
    private static List<String> utf8Constants(Path classFile) throws IOException {
        return io.ragsearch.contract.ClassConstants.utf8Entries(Files.readAllBytes(classFile));
    }
}
