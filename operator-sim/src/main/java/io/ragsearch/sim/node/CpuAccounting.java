package io.ragsearch.sim.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * CPU accounting cgroups (cgroup v1 {@code cpuacct}) below the agent's own, one per pod's main
 * container: the kernel counts the CPU time of every process and thread the container starts,
 * which is what a kubelet reports as {@code container_cpu_usage_seconds_total}. Nothing is limited
 * here; where the controller is missing or not writable, CPU usage is simply not reported.
 */
final class CpuAccounting {
    private static final Path ROOT = Path.of("/sys/fs/cgroup/cpuacct");
    private final Path base;

    private CpuAccounting(Path base) {
        this.base = base;
    }

    /** The agent's accounting cgroup ({@code name} below its own), or one that reports nothing. */
    static CpuAccounting detect(String name) {
        try {
            Optional<String> own = Files.readAllLines(Path.of("/proc/self/cgroup")).stream()
                    .map(l -> l.split(":", 3))
                    .filter(f -> f.length == 3 && List.of(f[1].split(",")).contains("cpuacct"))
                    .map(f -> f[2]).findFirst();
            if (own.isEmpty() || !Files.isDirectory(ROOT)) {
                return new CpuAccounting(null);
            }
            Path ownDir = Path.of(ROOT + own.get());
            MemoryCgroups.removeLeftovers(ownDir);
            Path base = Files.createDirectories(ownDir.resolve(name));
            return Files.isRegularFile(base.resolve("cpuacct.usage")) ? new CpuAccounting(base) : new CpuAccounting(null);
        } catch (IOException | RuntimeException e) {
            return new CpuAccounting(null);
        }
    }

    /** The agent's whole cgroup (every pod it runs): the node's usage as the node agent reports it. */
    Optional<Path> node() {
        return Optional.ofNullable(base);
    }

    /** A new accounting cgroup for one pod's container (counters start at zero), or empty where there is none. */
    Optional<Path> create(String pod) {
        if (base == null) {
            return Optional.empty();
        }
        try {
            Path dir = base.resolve(pod);
            if (Files.isDirectory(dir)) {
                Files.delete(dir);
            }
            return Optional.of(Files.createDirectories(dir));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    static void delete(Path dir) {
        try {
            Files.deleteIfExists(dir);
        } catch (IOException ignored) {
            // still holds a process being killed: the kernel refuses, the agent's close() tries again
        }
    }

    void close() {
        if (base != null) {
            try (var children = Files.list(base)) {
                children.filter(Files::isDirectory).forEach(CpuAccounting::delete);
            } catch (IOException ignored) {
                // removed with the session's cgroup anyway
            }
            delete(base);
        }
    }
}
