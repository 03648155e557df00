package io.ragsearch.operator.structure;

import io.ragsearch.contract.PackageGraph;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The operator's package rules (docs/packages.md), checked over its compiled classes: each
 * package imports only the packages listed for it — which also means no cycles — and nothing of
 * the server but the contract, nothing of operator-sim ({@code io.ragsearch.sim}: the node agent,
 * the control-plane harness, the playground) and nothing of the mock API server.
 */
class PackageRulesTest {
    private static final String ROOT = "io/ragsearch/operator/";
    private static final Path CLASSES = Path.of("target/classes");

    /** What each package may import of the operator's own packages. */
    static final Map<String, Set<String>> MAY_IMPORT = Map.ofEntries(
            Map.entry("model", Set.of()),
            Map.entry("budget", Set.of()),
            Map.entry("naming", Set.of()),
            Map.entry("metrics", Set.of()),
            Map.entry("podadmin", Set.of()),
            Map.entry("file", Set.of("model")),
            Map.entry("crd", Set.of("model")),
            Map.entry("spec", Set.of("model", "budget", "naming")),
            Map.entry("manifest", Set.of("spec", "model", "budget", "naming")),
            Map.entry("dependent", Set.of("manifest", "model", "naming")),
            Map.entry("reconcile", Set.of("spec", "manifest", "dependent", "podadmin", "metrics", "model", "budget", "naming")),
            Map.entry("cli", Set.of("reconcile", "spec", "manifest", "podadmin", "metrics", "file", "model", "budget", "naming")));

    private static PackageGraph graph() {
        return PackageGraph.read(CLASSES, ROOT);
    }

    @Test
    void eachPackageImportsOnlyWhatItsRuleAllows() {
        PackageGraph found = graph();
        assertEquals(new TreeSet<>(MAY_IMPORT.keySet()), new TreeSet<>(found.uses().keySet()),
                "every package has a rule here and in docs/packages.md");
        assertEquals(List.of(), found.notAllowedBy(MAY_IMPORT));
    }

    @Test
    void theRulesThemselvesHaveNoCycle() {
        assertEquals(Optional.empty(), new PackageGraph(ROOT, MAY_IMPORT, Map.of()).cycle(), "a cycle through the package named");
    }

    @Test
    void theOperatorSeesNoServerInternalsNoSimulatorAndNoMockServer() {
        PackageGraph found = graph();
        List<String> forbidden = found.names().keySet().stream().flatMap(pkg -> found.namesRejected(pkg, r -> !(
                        (r.startsWith("io/ragsearch/") && !r.startsWith(ROOT) && !r.startsWith("io/ragsearch/contract/"))
                                || r.startsWith("io/fabric8/kubernetes/client/server/mock/") || r.startsWith("io/fabric8/mockwebserver/")))
                .stream()).toList();
        assertEquals(List.of(), forbidden);
    }
}
