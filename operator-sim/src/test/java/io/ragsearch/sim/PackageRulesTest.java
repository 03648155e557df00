package io.ragsearch.sim;

import io.ragsearch.contract.PackageGraph;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * operator-sim's rooms (docs/packages.md): {@code node} is our kubelet, {@code plane} starts the
 * real control plane, {@code playground} puts both together with the operator for a person to
 * try. A kubelet knows nothing of the operator that made its pods, so {@code node} uses only the
 * operator's pod layout names and {@code plane} nothing of it; only the playground starts the
 * operator, through the runtime the operator's own {@code run} command starts ({@code OperatorRuntime}),
 * never its reconcile decisions. The tests live in
 * this module's own packages, beside what they test, or in {@code cluster} (the shared real-plane
 * harness) and {@code endtoend} (scenarios across the whole system).
 */
class PackageRulesTest {
    private static final String ROOT = "io/ragsearch/sim/";
    private static final String OPERATOR = "io/ragsearch/operator/";

    /** What each package may use of this module's others. */
    static final Map<String, Set<String>> MAY_USE = Map.of(
            "node", Set.of(),
            "plane", Set.of(),
            "playground", Set.of("node", "plane"));

    /** What each package may name of the operator. */
    static final Map<String, Predicate<String>> MAY_NAME_OF_OPERATOR = Map.of(
            "node", n -> n.startsWith(OPERATOR + "naming/"),
            "plane", n -> false,
            // The runtime's constructor names its settings and its (absent) leader election; the command its version.
            "playground", n -> Stream.of("naming/", "model/", "file/", "budget/", "podadmin/", "cli/OperatorVersion",
                            "reconcile/OperatorRuntime", "reconcile/RagSearchReconciler", "reconcile/LeaderElection")
                    .anyMatch(allowed -> n.startsWith(OPERATOR + allowed)));

    private static PackageGraph main() {
        return PackageGraph.read(Path.of("target/classes"), ROOT);
    }

    @Test
    void eachPackageUsesOnlyWhatItsRuleAllows() {
        PackageGraph graph = main();
        assertEquals(List.of(), graph.notAllowedBy(MAY_USE));
        assertEquals(MAY_USE.keySet(), graph.uses().keySet(), "every row names a package that exists");
        assertTrue(graph.uses().get("playground").contains("node"), "the check sees references");
        assertEquals(Optional.empty(), graph.cycle());
    }

    @Test
    void theKubeletAndThePlaneKnowNothingOfTheOperatorAndThePlaygroundOnlyItsEntry() {
        PackageGraph graph = main();
        List<String> named = MAY_NAME_OF_OPERATOR.entrySet().stream()
                .flatMap(e -> graph.namesRejected(e.getKey(), n -> !n.startsWith(OPERATOR) || e.getValue().test(n)).stream())
                .sorted().toList();
        assertEquals(List.of(), named);
        assertTrue(graph.names().get("playground").contains(OPERATOR + "reconcile/OperatorRuntime"),
                "the check sees what the playground names of the operator");
    }

    @Test
    void theTestsLiveInThisModulesOwnPackages() throws Exception {
        Path tests = Path.of("target/test-classes");
        try (Stream<Path> files = Files.walk(tests.resolve("io/ragsearch"))) {
            List<String> elsewhere = files.filter(p -> p.toString().endsWith(".class"))
                    .map(p -> tests.relativize(p).toString().replace('\\', '/'))
                    .filter(n -> !n.startsWith(ROOT) && !n.startsWith("io/ragsearch/docs/"))
                    .sorted().toList();
            assertEquals(List.of(), elsewhere, "operator-sim's tests belong in io.ragsearch.sim (or docs)");
        }
        Set<String> testPackages = PackageGraph.read(tests, ROOT).uses().keySet();
        assertEquals(Set.of("", "node", "plane", "playground", "cluster", "endtoend"), testPackages,
                "the tests' packages: beside node, plane and playground, the real-plane harness and the end-to-end scenarios");
    }
}
