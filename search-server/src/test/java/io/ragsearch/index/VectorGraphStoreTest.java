package io.ragsearch.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Graphs kept beside the vector cache: reopened for the same vectors, replaced for others, rebuilt when unreadable. */
class VectorGraphStoreTest {

    private static final VectorSearchSettings SMALL_THRESHOLD = new VectorSearchSettings(100, 16, 100, 100, false);

    private static List<Path> graphs(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            return all.filter(p -> p.getFileName().toString().startsWith("graph-")).toList();
        }
    }

    @Test
    void theSecondStartReopensTheGraphTheFirstKept(@TempDir Path root) throws Exception {
        float[][] vectors = TestVectors.clustered(300, 16, 4, 71);
        VectorGraphStore store = new VectorGraphStore(root);
        List<RankedArticle> first;
        try (VectorIndex index = store.index("p", vectors, SMALL_THRESHOLD)) {
            assertTrue(index.approximate());
            first = index.nearest(vectors[3], 10);
        }
        List<Path> kept = graphs(root);
        assertEquals(1, kept.size());
        long written = Files.getLastModifiedTime(kept.get(0)).toMillis();
        try (VectorIndex again = store.index("p", vectors, SMALL_THRESHOLD)) {
            assertEquals(first, again.nearest(vectors[3], 10));
        }
        assertEquals(kept, graphs(root));
        assertEquals(written, Files.getLastModifiedTime(kept.get(0)).toMillis(), "reopened, not rewritten");
    }

    @Test
    void otherVectorsGetTheirOwnGraphAndTheOldOneGoes(@TempDir Path root) throws Exception {
        VectorGraphStore store = new VectorGraphStore(root);
        store.index("p", TestVectors.clustered(300, 16, 4, 81), SMALL_THRESHOLD).close();
        List<Path> before = graphs(root);
        float[][] changed = TestVectors.clustered(300, 16, 4, 82);
        try (VectorIndex index = store.index("p", changed, SMALL_THRESHOLD)) {
            assertEquals(0, index.nearest(changed[0], 1).get(0).position());
        }
        List<Path> after = graphs(root);
        assertEquals(1, after.size());
        assertNotEquals(before, after);
    }

    @Test
    void anUnreadableGraphIsBuiltAgain(@TempDir Path root) throws Exception {
        float[][] vectors = TestVectors.clustered(300, 16, 4, 91);
        VectorGraphStore store = new VectorGraphStore(root);
        store.index("p", vectors, SMALL_THRESHOLD).close();
        try (Stream<Path> files = Files.list(graphs(root).get(0))) {
            for (Path f : files.toList()) {
                Files.write(f, new byte[] {1, 2, 3}); // every file garbage, as after a disk fault
            }
        }
        try (VectorIndex index = store.index("p", vectors, SMALL_THRESHOLD)) {
            assertTrue(index.approximate());
            assertEquals(17, index.nearest(vectors[17], 1).get(0).position());
        }
    }

    @Test
    void belowTheThresholdNothingIsWritten(@TempDir Path root) throws Exception {
        try (VectorIndex index = new VectorGraphStore(root).index("p", TestVectors.clustered(99, 16, 4, 5), SMALL_THRESHOLD)) {
            assertFalse(index.approximate());
        }
        assertTrue(graphs(root).isEmpty());
    }
}
