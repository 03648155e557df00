package io.ragsearch.bench;

import io.ragsearch.contract.PackageGraph;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The bench is one package (docs/packages.md) that measures the server through its library
 * packages and its command line. It does not reach into the server's transport, admin, auth,
 * storage or refresh code: what it times is what `serve` and `eval` run, started the way a user
 * starts them. Nothing of the operator either.
 */
class PackageRulesTest {

    /** The server's packages (and the contract) the bench may use. */
    static final Set<String> MAY_USE = Set.of("cli", "config", "contract", "corpus", "embed", "eval", "index",
            "metrics", "query", "rerank", "search", "server");

    @Test
    void theBenchIsOnePackageAndUsesOnlyTheServersLibraryPackages() {
        PackageGraph graph = PackageGraph.read(Path.of("target/classes"), "io/ragsearch/");
        assertEquals(Set.of("bench"), graph.uses().keySet(), "the bench's classes are all in io.ragsearch.bench");
        assertEquals(List.of(), graph.notAllowedBy(Map.of("bench", MAY_USE)));
        assertEquals(List.of(), graph.namesRejected("bench", n -> !n.startsWith("io/ragsearch/operator/")));
    }
}
