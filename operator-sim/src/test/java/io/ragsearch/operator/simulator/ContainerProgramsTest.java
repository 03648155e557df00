package io.ragsearch.operator.simulator;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Which program a container runs, by its image reference: the repository decides, never the tag or digest. */
class ContainerProgramsTest {
    private static final Path OPERATOR = Path.of("/agent/image/ragsearch-operator.jar");
    private static final ContainerLauncher.Programs PROGRAMS = new ContainerLauncher.Programs(Path.of("/agent/image/ragsearch-server.jar"),
            null, Map.of("ragsearch/operator", OPERATOR, "registry.example:5000/team/operator", OPERATOR));

    @Test
    void aMappedRepositoryRunsItsJarWhateverTheTagOrDigest() {
        assertEquals(OPERATOR, PROGRAMS.jarFor("ragsearch/operator"));
        assertEquals(OPERATOR, PROGRAMS.jarFor("ragsearch/operator:0.1.0-SNAPSHOT"));
        assertEquals(OPERATOR, PROGRAMS.jarFor("ragsearch/operator@sha256:" + "a".repeat(64)));
        assertEquals(OPERATOR, PROGRAMS.jarFor("ragsearch/operator:1.0@sha256:" + "b".repeat(64)));
        // a registry's port is part of the repository, not a tag
        assertEquals(OPERATOR, PROGRAMS.jarFor("registry.example:5000/team/operator:2"));
    }

    @Test
    void everyOtherImageRunsTheServer() {
        assertNull(PROGRAMS.jarFor("ragsearch/search-server:0.1.0-SNAPSHOT"));
        assertNull(PROGRAMS.jarFor("ragsearch/operator-fork:1"));
        assertNull(PROGRAMS.jarFor("registry.example:5000/ragsearch/operator:1"));
        assertNull(PROGRAMS.jarFor("registry.example:5000/team/operator-x"));
        assertNull(PROGRAMS.jarFor(null));
    }
}
