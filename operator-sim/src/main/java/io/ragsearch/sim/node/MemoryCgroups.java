package io.ragsearch.sim.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Memory cgroups below the simulator's own, one per pod: where the machine allows it, a pod's
 * process runs under its template's memory limit, and an OOM kill is seen as one. Only the
 * cgroup v1 memory controller is used (cgroup v2 needs the controller delegated to a subtree
 * without processes, which a session's own cgroup is not).
 */
public final class MemoryCgroups {

    private final Path base;
    private final String unavailable;

    private MemoryCgroups(Path base, String unavailable) {
        this.base = base;
        this.unavailable = unavailable;
    }

    /** Finds the process's own memory cgroup and checks that a child can be made and limited there. */
    public static MemoryCgroups detect(String name) {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/self/cgroup"));
            Optional<String> v1 = lines.stream().filter(l -> l.split(":", 3)[1].equals("memory")).map(l -> l.split(":", 3)[2]).findFirst();
            if (v1.isEmpty()) {
                return new MemoryCgroups(null, "no cgroup v1 memory controller (cgroup v2 delegation is not attempted)");
            }
            Path own = Path.of("/sys/fs/cgroup/memory" + v1.get());
            removeLeftovers(own);
            Path base = own.resolve(name);
            Files.createDirectories(base);
            Path probe = Files.createDirectories(base.resolve("probe-" + ProcessHandle.current().pid()));
            try {
                Files.writeString(probe.resolve("memory.limit_in_bytes"), Long.toString(256L << 20));
            } finally {
                Files.delete(probe);
            }
            return new MemoryCgroups(base, null);
        } catch (IOException | RuntimeException e) {
            return new MemoryCgroups(null, "cannot create a limited memory cgroup here (" + e.getMessage() + ")");
        }
    }

    /**
     * The cgroups of agents whose JVM was killed before {@code close()} ("ragsearch-node-PID-N",
     * "ragsearch-sim-PID"): removed when their process is gone. The kernel refuses to remove a
     * cgroup that still holds a process, so nothing running loses its limit.
     */
    static void removeLeftovers(Path own) {
        try (var dirs = Files.list(own)) {
            for (Path dir : dirs.filter(Files::isDirectory).toList()) {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("ragsearch-(?:node|sim)-(\\d+)(?:-\\d+)?")
                        .matcher(dir.getFileName().toString());
                if (m.matches() && ProcessHandle.of(Long.parseLong(m.group(1))).isEmpty()) {
                    CgroupDirs.remove(dir);
                }
            }
        } catch (IOException | RuntimeException e) {
            // leftovers stay; they hold no process
        }
    }

    /** The agent's own memory cgroup (every pod's below it), where limits are enforced. */
    Optional<Path> dir() {
        return Optional.ofNullable(base);
    }

    public boolean enforced() {
        return base != null;
    }

    /** Why limits are not enforced; empty when they are. */
    public Optional<String> unavailableReason() {
        return Optional.ofNullable(unavailable);
    }

    /** A cgroup limited to {@code bytes} for one pod's container (made anew, so counters start at zero). */
    public Limited create(String pod, long bytes) throws IOException {
        Limited cgroup = new Limited(CgroupDirs.fresh(base, pod));
        cgroup.limit(bytes);
        return cgroup;
    }

    public void close() {
        if (base != null) {
            CgroupDirs.remove(base);
        }
    }

    /** One pod's cgroup. */
    public record Limited(Path dir) {
        public Path procs() {
            return dir.resolve("cgroup.procs");
        }

        /** A new limit for the processes already in it (what a kubelet's in-place resize writes). */
        public void limit(long bytes) throws IOException {
            Files.writeString(dir.resolve("memory.limit_in_bytes"), Long.toString(bytes));
        }

        /** OOM kills in this cgroup so far (the kernel's own count). */
        public long oomKills() {
            try {
                for (String line : Files.readAllLines(dir.resolve("memory.oom_control"))) {
                    if (line.startsWith("oom_kill ")) {
                        return Long.parseLong(line.substring(9).strip());
                    }
                }
                return 0;
            } catch (IOException | NumberFormatException e) {
                return 0;
            }
        }

        public long peakBytes() {
            try {
                return Long.parseLong(Files.readString(dir.resolve("memory.max_usage_in_bytes")).strip());
            } catch (IOException | NumberFormatException e) {
                return -1;
            }
        }

        public void delete() {
            CgroupDirs.deleteQuietly(dir);
        }
    }
}
