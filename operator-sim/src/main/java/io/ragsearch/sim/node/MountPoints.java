package io.ragsearch.sim.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Bind mounts need their target to exist. Targets missing on this machine (/corpus, /models,
 * /etc/ragsearch) are created empty, shared by all pods, and removed again at the end.
 */
final class MountPoints {
    private final Deque<Path> created = new ArrayDeque<>();

    synchronized void ensure(Path target) throws IOException {
        Path missing = null;
        for (Path p = target.toAbsolutePath(); p != null && !Files.exists(p); p = p.getParent()) {
            missing = p;
        }
        if (missing == null) {
            return;
        }
        Files.createDirectories(target);
        for (Path p = target.toAbsolutePath(); p != null && p.startsWith(missing); p = p.getParent()) {
            created.push(p);
        }
    }

    /** Removes what was created, deepest first, where it is still empty. */
    synchronized void close() {
        for (Path p : created.stream().sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException ignored) {
                // not empty or still in use: leave it
            }
        }
        created.clear();
    }
}
