package io.ragsearch.contract;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The contract's packages (docs/packages.md): JSON at the bottom, the shapes both programs
 * exchange above it, and nothing of either program. Both the server and the operator depend on
 * this module, so a reference to them from here would be a cycle between modules.
 */
class PackageRulesTest {
    private static final String ROOT = "io/ragsearch/contract/";

    /** What each package may use of the others; "" is the root package (errors, environment, endpoints). */
    static final Map<String, Set<String>> MAY_USE = Map.of(
            "json", Set.of(""),
            "", Set.of(),
            "budget", Set.of(),
            "settings", Set.of(""),
            "calibration", Set.of("", "json"),
            "verification", Set.of("", "json"));

    private static PackageGraph graph() {
        return PackageGraph.read(Path.of("target/classes"), ROOT);
    }

    @Test
    void eachPackageUsesOnlyWhatItsRuleAllows() {
        PackageGraph graph = graph();
        assertEquals(List.of(), graph.notAllowedBy(MAY_USE));
        assertEquals(MAY_USE.keySet(), graph.uses().keySet(), "every row names a package that exists");
        assertTrue(graph.uses().get("calibration").contains("json"), "the check sees references");
    }

    @Test
    void thePackagesFormNoCycle() {
        assertEquals(Optional.empty(), graph().cycle());
    }

    @Test
    void theContractNamesNeitherProgram() {
        PackageGraph graph = graph();
        List<String> foreign = graph.names().keySet().stream()
                .flatMap(p -> graph.namesRejected(p, n -> !n.startsWith("io/ragsearch/") || n.startsWith(ROOT)).stream())
                .toList();
        assertEquals(List.of(), foreign);
    }
}
