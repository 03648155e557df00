package io.ragsearch.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The packaged server jar the pom declares (Failsafe's server.jar property): child JVMs run what ships. */
public final class ServerJar {

    private ServerJar() {
    }

    public static Path path() {
        String value = System.getProperty("server.jar");
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property server.jar is not set: run this test through mvn verify");
        }
        Path jar = Path.of(value);
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("server jar " + jar + " does not exist: mvn package builds it");
        }
        return jar;
    }

    /** {@code java [jvmOptions] -jar ragsearch-server.jar} with this JVM's java. */
    public static List<String> command(String... jvmOptions) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(List.of(jvmOptions));
        cmd.addAll(List.of("-jar", path().toString()));
        return cmd;
    }
}
