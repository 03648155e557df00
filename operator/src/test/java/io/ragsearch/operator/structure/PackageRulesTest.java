package io.ragsearch.operator.structure;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    @Test
    void eachPackageImportsOnlyWhatItsRuleAllows() throws IOException {
        Map<String, Set<String>> found = packageImports();
        assertEquals(new TreeSet<>(MAY_IMPORT.keySet()), new TreeSet<>(found.keySet()),
                "every package has a rule here and in docs/packages.md");
        List<String> broken = new ArrayList<>();
        found.forEach((pkg, imports) -> imports.stream().filter(i -> !MAY_IMPORT.get(pkg).contains(i))
                .forEach(i -> broken.add(pkg + " -> " + i)));
        assertEquals(List.of(), broken);
    }

    @Test
    void theRulesThemselvesHaveNoCycle() {
        for (String start : MAY_IMPORT.keySet()) {
            assertTrue(!reaches(start, start, new TreeSet<>()), "a cycle through " + start);
        }
    }

    @Test
    void theOperatorSeesNoServerInternalsNoSimulatorAndNoMockServer() throws IOException {
        List<String> forbidden = new ArrayList<>();
        forEachClass((name, refs) -> refs.stream()
                .filter(r -> (r.startsWith("io/ragsearch/") && !r.startsWith(ROOT) && !r.startsWith("io/ragsearch/contract/"))
                        || r.startsWith("io/fabric8/kubernetes/client/server/mock/") || r.startsWith("io/fabric8/mockwebserver/"))
                .forEach(r -> forbidden.add(name + " -> " + r)));
        assertEquals(List.of(), forbidden);
    }

    private static boolean reaches(String from, String target, Set<String> seen) {
        for (String next : MAY_IMPORT.getOrDefault(from, Set.of())) {
            if (next.equals(target) || (seen.add(next) && reaches(next, target, seen))) {
                return true;
            }
        }
        return false;
    }

    private static Map<String, Set<String>> packageImports() throws IOException {
        Map<String, Set<String>> imports = new TreeMap<>();
        forEachClass((name, refs) -> {
            String pkg = topPackage(name);
            Set<String> mine = imports.computeIfAbsent(pkg, p -> new TreeSet<>());
            refs.stream().filter(r -> r.startsWith(ROOT)).map(PackageRulesTest::topPackage)
                    .filter(p -> !p.equals(pkg)).forEach(mine::add);
        });
        return imports;
    }

    private static String topPackage(String internalName) {
        String rest = internalName.substring(ROOT.length());
        int slash = rest.indexOf('/');
        return slash < 0 ? "" : rest.substring(0, slash);
    }

    private interface ClassVisitor {
        void visit(String name, Set<String> references);
    }

    private static void forEachClass(ClassVisitor visitor) throws IOException {
        assertTrue(Files.isDirectory(CLASSES.resolve(ROOT)), "compiled classes expected in " + CLASSES);
        try (Stream<Path> files = Files.walk(CLASSES.resolve(ROOT))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String name = CLASSES.relativize(f).toString().replace('\\', '/').replaceAll("\\.class$", "");
                visitor.visit(name, ClassReferences.of(Files.readAllBytes(f)));
            }
        }
    }
}
