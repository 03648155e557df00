package io.ragsearch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.server.Version;
import org.junit.jupiter.api.Test;

/** The version comes from Maven, once; development tools left the server's command line with a pointer to where they went. */
class VersionAndMovedCommandsTest {

    @Test
    void versionIsTheMavenProjectVersion() {
        String maven = System.getProperty("ragsearch.version");
        assertEquals(maven, Version.current(), "the filtered resource holds the pom's version");
        CliRun.Result r = CliRun.inProcess("--version");
        assertEquals(0, r.exitCode());
        assertEquals("ragsearch " + maven, r.out().strip());
    }

    @Test
    void plotAndBenchAreInTheBenchJar() {
        CliRun.Result plot = CliRun.inProcess("eval", "--sweep", "--plot", "out", "questions.yaml");
        assertEquals(1, plot.exitCode());
        assertEquals(1, plot.err().strip().lines().count(), plot.err());
        assertTrue(plot.err().contains("java -jar search-bench/target/ragsearch-bench.jar eval"), plot.err());
        CliRun.Result bench = CliRun.inProcess("bench", "--quick");
        assertEquals(2, bench.exitCode(), "no such command in the server's jar");
    }
}
