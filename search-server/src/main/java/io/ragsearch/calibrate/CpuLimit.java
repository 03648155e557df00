package io.ragsearch.calibrate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The CPU limit this process runs under, read from its own cgroup each time it is asked: cgroup v2
 * {@code cpu.max} ("max 100000": none; "150000 100000": 1500m), or the cgroup v1 cpu controller's
 * {@code cpu.cfs_quota_us} over {@code cpu.cfs_period_us} (quota -1: none). A kubelet's in-place
 * resize rewrites these files, so reading them again is how the process sees its new limit. Found
 * the way {@link MemoryProbe} finds the memory cgroup: the path /proc/self/cgroup names, or the
 * mount's root inside a container's cgroup namespace.
 */
public final class CpuLimit {

    private final Path dir;
    private final boolean v2;
    /** The cpu.max-format file itself, when not the cgroup's (ofFile). */
    private final Path file;

    private CpuLimit(Path dir, boolean v2) {
        this.dir = dir;
        this.v2 = v2;
        this.file = null;
    }

    private CpuLimit(Path file) {
        this.dir = file;
        this.v2 = true;
        this.file = file;
    }

    /** This process's CPU cgroup, or empty where none can be read (then the operator's value holds). */
    public static Optional<CpuLimit> detect() {
        return detect(Path.of("/proc/self/cgroup"), Path.of("/sys/fs/cgroup"));
    }

    /** A file of cgroup v2's {@code cpu.max} format somewhere else (RAGSEARCH_CPU_LIMIT_FILE: tests, other mounts). */
    public static CpuLimit ofFile(Path cpuMax) {
        return new CpuLimit(cpuMax);
    }

    static Optional<CpuLimit> detect(Path procCgroup, Path cgroupRoot) {
        List<String> lines;
        try {
            lines = Files.readAllLines(procCgroup);
        } catch (IOException e) {
            return Optional.empty();
        }
        for (String line : lines) {
            String[] parts = line.split(":", 3);
            if (parts.length < 3) {
                continue;
            }
            boolean v2 = parts[0].equals("0") && parts[1].isEmpty();
            boolean v1 = List.of(parts[1].split(",")).contains("cpu");
            if (!v2 && !v1) {
                continue;
            }
            // cgroup v1 mounts the controller alone ("cpu") or with cpuacct ("cpu,cpuacct", with "cpu" a link to it).
            Path base = v2 ? cgroupRoot : cgroupRoot.resolve("cpu");
            String file = v2 ? "cpu.max" : "cpu.cfs_quota_us";
            for (Path candidate : new Path[] {base.resolve(parts[2].replaceFirst("^/", "")), base}) {
                if (Files.isReadable(candidate.resolve(file))) {
                    return Optional.of(new CpuLimit(candidate, v2));
                }
            }
        }
        return Optional.empty();
    }

    /** Where the limit is read: the cgroup's directory, or the file given (for the log). */
    public Path where() {
        return dir;
    }

    /** The limit now in millicores; empty for none, or when the files cannot be read any more. */
    public OptionalLong read() {
        try {
            if (file != null) {
                return parseCpuMax(Files.readString(file));
            }
            if (v2) {
                return parseCpuMax(Files.readString(dir.resolve("cpu.max")));
            }
            return parseCfs(Files.readString(dir.resolve("cpu.cfs_quota_us")), Files.readString(dir.resolve("cpu.cfs_period_us")));
        } catch (IOException e) {
            return OptionalLong.empty();
        }
    }

    /** cgroup v2 {@code cpu.max}: "QUOTA PERIOD" in microseconds, QUOTA "max" for none. */
    static OptionalLong parseCpuMax(String content) {
        String[] f = content.strip().split("\\s+");
        if (f.length != 2 || f[0].equals("max")) {
            return OptionalLong.empty();
        }
        return millis(f[0], f[1]);
    }

    /** cgroup v1 {@code cpu.cfs_quota_us} and {@code cpu.cfs_period_us}, quota -1 for none. */
    static OptionalLong parseCfs(String quota, String period) {
        return millis(quota.strip(), period.strip());
    }

    /**
     * quota / period in millicores: the kubelet writes quota = millis × period / 1000, so this
     * gives back the limit it was given (at least 1: the kernel's smallest quota is 1 ms).
     */
    private static OptionalLong millis(String quota, String period) {
        try {
            long q = Long.parseLong(quota);
            long p = Long.parseLong(period);
            if (q <= 0 || p <= 0) {
                return OptionalLong.empty();
            }
            return OptionalLong.of(Math.max(1, Math.multiplyExact(q, 1000L) / p));
        } catch (NumberFormatException | ArithmeticException e) {
            return OptionalLong.empty();
        }
    }
}
