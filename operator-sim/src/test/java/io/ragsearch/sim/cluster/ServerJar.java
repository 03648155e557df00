package io.ragsearch.sim.cluster;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The search server jar the process-level tests run, and the operator's, as the build declares
 * them (operator-sim's pom hands them over as the system properties {@code server.jar} and
 * {@code operator.jar}; the reactor builds both first).
 */
public final class ServerJar {
    private ServerJar() {
    }

    public static Path path() {
        return declared("server.jar", "search-server");
    }

    /** ragsearch-operator.jar, which our node agent runs for the chart's operator pods. */
    public static Path operator() {
        return declared("operator.jar", "operator");
    }

    private static Path declared(String property, String module) {
        String declared = System.getProperty(property);
        if (declared == null || declared.isBlank()) {
            throw new IllegalStateException("system property " + property + " is not set: run these tests through Maven "
                    + "(mvn -pl operator-sim -am verify), which declares it");
        }
        Path jar = Path.of(declared);
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(property + " not found: " + jar + " (the reactor builds it in the " + module
                    + " module's package phase)");
        }
        return jar;
    }
}
