package io.ragsearch.sim.plane;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where the control plane cannot come from, the message says what to do: outside the checkout,
 * without Go, with a wrong {@code RAGSEARCH_TESTPLANE_BIN}. Nothing here builds or starts a plane.
 */
class TestplaneBinaryTest {
    private final PrintStream progress = new PrintStream(new ByteArrayOutputStream());

    @Test
    void outsideTheCheckoutItSaysWhereToRunFrom(@TempDir Path elsewhere) {
        ControlPlaneUnavailable e = assertThrows(ControlPlaneUnavailable.class,
                () -> TestplaneBinary.resolve(progress, Map.of("PATH", System.getenv("PATH")), elsewhere));
        assertEquals("scripts/testplane-build.sh not found in " + elsewhere + " or any directory above it: run this from the "
                + "ragsearch checkout (the directory that holds scripts/), or set RAGSEARCH_TESTPLANE_BIN to a testplane "
                + "binary that script built", e.getMessage());
    }

    @Test
    void withoutGoItSaysToInstallTheVersionTheModuleNames(@TempDir Path noGo) {
        Path root = ControlPlane.projectRoot();
        ControlPlaneUnavailable e = assertThrows(ControlPlaneUnavailable.class,
                () -> TestplaneBinary.resolve(progress, Map.of("PATH", noGo.toString()), root));
        String goLine = readGoLine(root);
        assertEquals("Go is not installed (no go on PATH), and the control plane is built from Go modules by "
                + "scripts/testplane-build.sh: install Go " + goLine + " or newer (the version testplane/go.mod names), "
                + "put its bin directory on PATH and run again", e.getMessage());
    }

    @Test
    void aGivenBinaryThatIsNotThereIsNamed(@TempDir Path dir) {
        Path missing = dir.resolve("testplane");
        ControlPlaneUnavailable e = assertThrows(ControlPlaneUnavailable.class,
                () -> TestplaneBinary.resolve(progress, Map.of("RAGSEARCH_TESTPLANE_BIN", missing.toString()), dir));
        assertTrue(e.getMessage().startsWith("RAGSEARCH_TESTPLANE_BIN=" + missing + " is not an executable file: unset it"),
                e.getMessage());
    }

    @Test
    void theCheckoutIsFoundFromAModuleDirectory() {
        Path root = ControlPlane.projectRoot();
        assertTrue(Files.isRegularFile(root.resolve("scripts/testplane-build.sh")));
        assertEquals(root, ControlPlane.projectRoot(root.resolve("operator-sim/src")));
    }

    private static String readGoLine(Path root) {
        try {
            return Files.readAllLines(root.resolve("testplane/go.mod")).stream().map(String::strip)
                    .filter(l -> l.startsWith("go ")).map(l -> l.substring(3).strip()).findFirst().orElseThrow();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
