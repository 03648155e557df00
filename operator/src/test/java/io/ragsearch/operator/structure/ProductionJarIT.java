package io.ragsearch.operator.structure;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The operator's runnable jar as shipped (the pom hands its path over as {@code operator.jar}):
 * no development tools inside — no simulator, playground, control-plane harness or stand-in API
 * server — and of the project's own code only the operator and the contract.
 */
class ProductionJarIT {

    @Test
    void theProductionJarHoldsNoDevelopmentTools() throws IOException {
        Path jar = Path.of(System.getProperty("operator.jar", ""));
        assertTrue(Files.isRegularFile(jar), "operator.jar (set by the pom) not found: " + jar);
        try (JarFile file = new JarFile(jar.toFile())) {
            List<String> classes = file.stream().map(ZipEntry::getName).filter(n -> n.endsWith(".class")).toList();
            assertTrue(classes.contains("io/ragsearch/operator/cli/OperatorCli.class"), "the operator itself is inside");
            assertTrue(classes.contains("io/ragsearch/contract/budget/RerankBudget.class"), "and the contract");
            List<String> unwanted = classes.stream().filter(n -> n.startsWith("io/fabric8/kubernetes/client/server/mock/") || n.startsWith("io/fabric8/mockwebserver/")
                    || (n.startsWith("io/ragsearch/") && !n.startsWith("io/ragsearch/operator/") && !n.startsWith("io/ragsearch/contract/")))
                    .toList();
            assertEquals(List.of(), unwanted);
        }
    }
}
