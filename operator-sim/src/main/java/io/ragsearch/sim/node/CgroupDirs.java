package io.ragsearch.sim.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Making and removing the agent's cgroup directories, the same for the memory and the cpu controller. */
final class CgroupDirs {

    private CgroupDirs() {
    }

    /**
     * A pod's cgroup under {@code base}, made anew: a restarted container's counters start at zero
     * (the directory of its previous run holds no process by now, so rmdir takes it).
     */
    static Path fresh(Path base, String pod) throws IOException {
        Path dir = base.resolve(pod);
        if (Files.isDirectory(dir)) {
            Files.delete(dir);
        }
        return Files.createDirectories(dir);
    }

    /** The agent's cgroup and every pod's below it (a cgroup directory is removed with rmdir, empty of processes). */
    static void remove(Path base) {
        try (var children = Files.list(base)) {
            for (Path child : children.filter(Files::isDirectory).toList()) {
                deleteQuietly(child);
            }
        } catch (IOException ignored) {
            // the session's cgroup is removed with the session anyway
        }
        deleteQuietly(base);
    }

    static void deleteQuietly(Path dir) {
        try {
            Files.deleteIfExists(dir);
        } catch (IOException ignored) {
            // still has a process (being killed): the kernel refuses; the agent's close() tries again
        }
    }
}
