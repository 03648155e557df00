package io.ragsearch.operator.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OperatorVersionTest {

    @Test
    void versionIsTheMavenVersionFilteredAtBuildTime() {
        String version = OperatorVersion.current();
        assertTrue(version.matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?"), "filtered from the pom, got " + version);
        StringWriter out = new StringWriter();
        CommandLine cli = OperatorCli.commandLine();
        cli.setOut(new PrintWriter(out));
        assertEquals(0, cli.execute("--version"));
        assertEquals("ragsearch-operator " + version, out.toString().strip());
    }
}
