package io.ragsearch.calibrate;

import io.ragsearch.contract.Environment;
import io.ragsearch.metrics.ProcessMemory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads this process's memory where the limit applies: the cgroup's own usage counter when the
 * cgroup holds only this process and its own process tree (in a container: the container's
 * cgroup), process RSS otherwise. A cgroup shared with other processes (a developer's session,
 * a CI runner) would charge their memory and page cache to us, so it is not used;
 * {@code method} and {@code reason} say which and why.
 */
public final class MemoryProbe {

    private static final Logger LOG = LoggerFactory.getLogger(MemoryProbe.class);

    private static final long NO_LIMIT_ABOVE = 1L << 60;
    /** An init or shell wrapper stays far below this; a parent JVM (a test runner) does not. */
    private static final long WRAPPER_RSS_LIMIT = 64L << 20;

    public enum Method {
        CGROUP_V2("cgroup-v2"), CGROUP_V1("cgroup-v1"), RSS("rss");

        private final String wire;

        Method(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }
    }

    private final Method method;
    private final Path dir;
    private final String reason;

    private MemoryProbe(Method method, Path dir, String reason) {
        this.method = method;
        this.dir = dir;
        this.reason = reason;
    }

    /** Detects the method; {@code rss} (RAGSEARCH_MEMORY_PROBE=rss) forces process RSS, else the cgroup decides. */
    public static MemoryProbe detect(boolean rss) {
        if (rss) {
            return new MemoryProbe(Method.RSS, null, Environment.MEMORY_PROBE + "=rss");
        }
        return detect(Path.of("/proc/self/cgroup"), Path.of("/sys/fs/cgroup"), ProcessHandle.current().pid());
    }

    static MemoryProbe detect(Path procCgroup, Path cgroupRoot, long pid) {
        List<String> lines;
        try {
            lines = Files.readAllLines(procCgroup);
        } catch (IOException e) {
            return new MemoryProbe(Method.RSS, null, "no cgroup information");
        }
        String why = "no readable memory cgroup";
        for (String line : lines) {
            String[] parts = line.split(":", 3);
            if (parts.length < 3) {
                continue;
            }
            boolean v2 = parts[0].equals("0") && parts[1].isEmpty();
            boolean v1 = List.of(parts[1].split(",")).contains("memory");
            if (!v2 && !v1) {
                continue;
            }
            Path base = v2 ? cgroupRoot : cgroupRoot.resolve("memory");
            String usage = v2 ? "memory.current" : "memory.usage_in_bytes";
            // Inside a container the cgroup namespace puts our own cgroup at the root of the mount.
            for (Path candidate : new Path[] {base.resolve(parts[2].replaceFirst("^/", "")), base}) {
                if (Files.isReadable(candidate.resolve(usage))) {
                    Optional<String> foreign = foreignProcess(candidate, pid);
                    if (foreign.isEmpty()) {
                        LOG.info("memory measured in cgroup {}", candidate);
                        return new MemoryProbe(v2 ? Method.CGROUP_V2 : Method.CGROUP_V1, candidate,
                                "own cgroup (" + (v2 ? "v2" : "v1") + ")");
                    }
                    // /calibration is unauthenticated: the host's cgroup path and other PIDs stay in the log.
                    LOG.info("cgroup {} not used: it also holds {}", candidate, foreign.get());
                    why = "the memory cgroup also holds other processes (" + foreign.get().replaceAll("process \\d+", "a process") + ")";
                    break;
                }
            }
        }
        return new MemoryProbe(Method.RSS, null, why);
    }

    /**
     * A process in the cgroup that is not part of our own process tree (a container's init or
     * shell wrapper is an ancestor; helpers we start are descendants). Its memory, and the page
     * cache it causes, would be charged to us.
     */
    private static Optional<String> foreignProcess(Path cgroup, long pid) {
        Set<Long> family = new HashSet<>();
        family.add(pid);
        ProcessHandle.of(pid).ifPresent(self -> {
            Optional<ProcessHandle> p = self.parent();
            while (p.isPresent()) {
                family.add(p.get().pid());
                p = p.get().parent();
            }
            self.descendants().forEach(d -> family.add(d.pid()));
        });
        try {
            for (String line : Files.readAllLines(cgroup.resolve("cgroup.procs"))) {
                if (line.isBlank() || Long.parseLong(line.trim()) == pid) {
                    continue;
                }
                long other = Long.parseLong(line.trim());
                if (!family.contains(other)) {
                    return Optional.of("process " + other + ", which is not ours");
                }
                long rss = ProcessMemory.statusField(Path.of("/proc/" + other + "/status"), "VmRSS:");
                if (rss > WRAPPER_RSS_LIMIT) {
                    return Optional.of("process " + other + " of " + (rss >> 20) + " MiB (a build tool or parent JVM)");
                }
            }
            return Optional.empty();
        } catch (IOException | NumberFormatException e) {
            return Optional.of("processes it cannot list");
        }
    }

    public Method method() {
        return method;
    }

    /** Why this method: which cgroup, or why none could be used. */
    public String reason() {
        return reason;
    }

    /**
     * Memory charged now: for a cgroup its working set (usage minus inactive file cache, what the
     * kubelet and the OOM killer's reclaim leave), for a process its RSS.
     */
    public long current() {
        return switch (method) {
            case CGROUP_V2 -> readLong(dir.resolve("memory.current")) - statField("inactive_file");
            case CGROUP_V1 -> readLong(dir.resolve("memory.usage_in_bytes")) - statField("total_inactive_file");
            case RSS -> ProcessMemory.statusField(Path.of("/proc/self/status"), "VmRSS:");
        };
    }

    /**
     * Whether {@link #peak()} is a kernel high-water mark of {@link #current()}. Only VmHWM is:
     * the cgroup peaks (memory.peak, max_usage_in_bytes) include page cache, so for cgroups the
     * peak comes from sampling the working set.
     */
    public boolean hasKernelPeak() {
        return method == Method.RSS;
    }

    /** VmHWM since the last {@link #resetPeak()}; the current value where there is no kernel peak. */
    public long peak() {
        return hasKernelPeak() ? ProcessMemory.statusField(Path.of("/proc/self/status"), "VmHWM:") : current();
    }

    /** Resets VmHWM (clear_refs 5); returns whether a kernel peak is now counting from here. */
    public boolean resetPeak() {
        if (!hasKernelPeak()) {
            return false;
        }
        try {
            Files.writeString(Path.of("/proc/self/clear_refs"), "5");
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private long statField(String name) {
        try {
            for (String line : Files.readAllLines(dir.resolve("memory.stat"))) {
                if (line.startsWith(name + " ")) {
                    return Long.parseLong(line.substring(name.length() + 1).trim());
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }

    /** The memory limit that applies, if any (the cgroup's; RSS has none of its own). */
    public OptionalLong limit() {
        return limitFile().map(MemoryProbe::readLimit).orElse(OptionalLong.empty());
    }

    /** The file the limit is read from (cgroup v2 memory.max, v1 memory.limit_in_bytes); empty for RSS. */
    public Optional<Path> limitFile() {
        return switch (method) {
            case CGROUP_V2 -> Optional.of(dir.resolve("memory.max"));
            case CGROUP_V1 -> Optional.of(dir.resolve("memory.limit_in_bytes"));
            case RSS -> Optional.empty();
        };
    }

    /** A limit file's value: empty for "max", an unreadable file or a value so large it means none. */
    public static OptionalLong readLimit(Path file) {
        long limit = readLimitV2(file);
        return limit <= 0 || limit >= NO_LIMIT_ABOVE ? OptionalLong.empty() : OptionalLong.of(limit);
    }

    private static long readLimitV2(Path file) {
        try {
            String v = Files.readString(file).trim();
            return v.equals("max") ? -1 : Long.parseLong(v);
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    private static long readLong(Path file) {
        try {
            return Long.parseLong(Files.readString(file).trim());
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

}
