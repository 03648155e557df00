package io.ragsearch.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.contract.PackageGraph;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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

    private static PackageGraph graph;

    @BeforeAll
    static void readClasses() throws Exception {
        Path classes = Path.of(SearchServerApp.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        graph = PackageGraph.read(classes, "io/ragsearch/");
    }

    @Test
    void everyPackageUsesOnlyWhatItsRuleAllows() {
        assertEquals(List.of(), graph.notAllowedBy(ALLOWED), "each use allowed by the table, each package with a row (here and in docs/packages.md)");
    }

    @Test
    void thePackagesFormNoCycle() {
        assertEquals(Optional.empty(), graph.cycle(), "a cycle through the package named");
    }

    @Test
    void theServersJarHoldsNoDevelopmentTools() {
        Map<String, Set<String>> uses = graph.uses();
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
}
