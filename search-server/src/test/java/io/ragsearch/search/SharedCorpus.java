package io.ragsearch.search;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * The shared Korean statutes (../shared/corpus/ko-statutes beside the checkout). Under CI it must
 * be there: a missing corpus fails the test instead of skipping it.
 */
public final class SharedCorpus {

    private SharedCorpus() {
    }

    public static Path koStatutes() {
        String override = System.getenv("RAGSEARCH_SHARED_CORPUS");
        Path dir = override != null ? Path.of(override)
                : Path.of(System.getProperty("user.dir")).resolve("../../shared/corpus/ko-statutes").normalize();
        boolean present = Files.isDirectory(dir);
        if (System.getenv("CI") != null) {
            assertNotNull(present ? dir : null, "shared corpus missing under CI: " + dir);
        } else {
            Assumptions.assumeTrue(present, "shared corpus not found at " + dir);
        }
        return dir;
    }
}
