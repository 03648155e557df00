package io.ragsearch.sim.node;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Which program a container runs, by its image reference: the repository decides, never the digest;
 * a tag only where that tag is mapped on its own (two versions of the operator side by side).
 */
class ContainerProgramsTest {
    private static final Path OPERATOR = Path.of("/agent/image/ragsearch-operator.jar");
    private static final Path PREVIOUS = Path.of("/agent/image/ragsearch-operator-58415487233a.jar");
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

    @Test
    void aMappedTagRunsItsOwnJarAndEveryOtherTagTheRepositorys() {
        ContainerLauncher.Programs both = new ContainerLauncher.Programs(null, null,
                Map.of("ragsearch/operator", OPERATOR, "ragsearch/operator:0.1.0-previous", PREVIOUS));
        assertEquals(PREVIOUS, both.jarFor("ragsearch/operator:0.1.0-previous"));
        assertEquals(PREVIOUS, both.jarFor("ragsearch/operator:0.1.0-previous@sha256:" + "c".repeat(64)));
        assertEquals(OPERATOR, both.jarFor("ragsearch/operator:0.1.0-SNAPSHOT"));
        assertEquals(OPERATOR, both.jarFor("ragsearch/operator"));
        // a tag-only entry without its repository's: other tags run the server
        ContainerLauncher.Programs tagOnly = new ContainerLauncher.Programs(null, null, Map.of("ragsearch/operator:0.1.0-previous", PREVIOUS));
        assertNull(tagOnly.jarFor("ragsearch/operator:0.2.0"));
        assertNull(tagOnly.jarFor("ragsearch/operator"));
    }
}
