package io.ragsearch.operator.simulator;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The search server jar the process-level tests run, as the build declares it (operator-sim's
 * pom hands it over as the system property {@code server.jar}; the reactor builds it first).
 */
public final class ServerJar {
    private ServerJar() {
    }

    public static Path path() {
        String declared = System.getProperty("server.jar");
        if (declared == null || declared.isBlank()) {
            throw new IllegalStateException("system property server.jar is not set: run these tests through Maven "
                    + "(mvn -pl operator-sim -am verify), which declares the server's jar");
        }
        Path jar = Path.of(declared);
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("server jar not found: " + jar + " (the reactor builds it in the search-server module's package phase)");
        }
        return jar;
    }
}
