package io.ragsearch.build;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The parent pom's check that a production dependency is a final release, run for real: Maven on a
 * throwaway module whose parent is ours, once with a release candidate in compile scope (the build
 * must fail and name it) and once with the same candidate in test scope (never shipped: it passes).
 * Only the validate phase runs, where the check is bound, so each run takes seconds.
 */
class ReleaseDependencyRuleIT {

    /** A release candidate the MCP SDK used to bring, so a developer's repository holds it. */
    private static final String CANDIDATE = "io.projectreactor:reactor-core:3.9.0-RC1";

    @TempDir
    Path work;

    @Test
    void aReleaseCandidateInCompileScopeFailsTheBuildAndIsNamed() throws Exception {
        Run run = validate("compile");
        assertNotEquals(0, run.exitCode(), run.output());
        assertTrue(run.output().contains("Not a final release in the production dependencies of rule-probe"), run.output());
        assertTrue(run.output().contains("io.projectreactor:reactor-core:jar:3.9.0-RC1:compile"), run.output());
    }

    @Test
    void theSameCandidateInTestScopePasses() throws Exception {
        Run run = validate("test");
        assertEquals(0, run.exitCode(), run.output());
    }

    private record Run(int exitCode, String output) {}

    private Run validate(String scope) throws IOException, InterruptedException {
        String rootProperty = System.getProperty("project.root");
        assertNotNull(rootProperty, "project.root (and the other properties) come from the contract pom's Failsafe "
                + "configuration: run this test with mvn verify -Dit.test=ReleaseDependencyRuleIT");
        Path root = Path.of(rootProperty).toAbsolutePath();
        // The throwaway module sits under the build directory so that its parent is found by a
        // relative path, as for a module of ours.
        Path module = Files.createTempDirectory(Path.of(System.getProperty("probe.dir")), "rule-probe-");
        String[] gav = CANDIDATE.split(":");
        Files.writeString(module.resolve("pom.xml"), """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <parent>
                    <groupId>io.ragsearch</groupId>
                    <artifactId>ragsearch-parent</artifactId>
                    <version>%s</version>
                    <relativePath>%s</relativePath>
                  </parent>
                  <artifactId>rule-probe</artifactId>
                  <dependencies>
                    <dependency>
                      <groupId>%s</groupId>
                      <artifactId>%s</artifactId>
                      <version>%s</version>
                      <scope>%s</scope>
                    </dependency>
                  </dependencies>
                </project>
                """.formatted(System.getProperty("project.version"), module.relativize(root.resolve("pom.xml")),
                gav[0], gav[1], gav[2], scope), StandardCharsets.UTF_8);
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("maven.home"), "bin", "mvn").toString(), "-B", "-q",
                "-Dmaven.repo.local=" + System.getProperty("maven.repo.local"), "-f", module.resolve("pom.xml").toString()));
        if ("offline=true".equals(System.getProperty("maven.offline"))) {
            command.add("-o");
        }
        command.add("validate");
        Path log = work.resolve("mvn-" + scope + ".log");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        // A validate of one module with no sources: seconds; the bound is for a machine under load.
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("mvn validate of the probe module did not end within 5 minutes: " + Files.readString(log));
        }
        return new Run(p.exitValue(), Files.readString(log));
    }
}
