package io.ragsearch.sim.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * CPU cgroups below the agent's own, one per pod, where the machine allows it: a pod's process
 * runs under its container's CPU limit as a CFS quota (what a kubelet writes: quota = limit ×
 * period, period 100 ms), and an in-place resize rewrites the quota, which the server reads to
 * move its rerank permits. Only the cgroup v1 cpu controller is used, for the reason
 * {@link MemoryCgroups} gives; where it is missing or not writable, CPU is not limited and
 * {@link #unavailableReason()} says why.
 */
public final class CpuCgroups {

    /** The CFS period a kubelet uses, in microseconds. */
    static final long PERIOD_US = 100_000;
    /** The kernel's smallest quota (1 ms); a kubelet raises smaller ones to it. */
    static final long MIN_QUOTA_US = 1_000;

    private final Path base;
    private final String unavailable;

    private CpuCgroups(Path base, String unavailable) {
        this.base = base;
        this.unavailable = unavailable;
    }

    /** Finds the process's own cpu cgroup and checks that a child can be made and given a quota there. */
    public static CpuCgroups detect(String name) {
        try {
            Optional<String> own = ownPath(Files.readAllLines(Path.of("/proc/self/cgroup")));
            if (own.isEmpty()) {
                return new CpuCgroups(null, "no cgroup v1 cpu controller (cgroup v2 delegation is not attempted)");
            }
            Path ownDir = Path.of("/sys/fs/cgroup/cpu" + own.get());
            MemoryCgroups.removeLeftovers(ownDir);
            Path base = Files.createDirectories(ownDir.resolve(name));
            Path probe = Files.createDirectories(base.resolve("probe-" + ProcessHandle.current().pid()));
            try {
                writeQuota(probe, 500L);
            } finally {
                Files.delete(probe);
            }
            return new CpuCgroups(base, null);
        } catch (IOException | RuntimeException e) {
            return new CpuCgroups(null, "cannot create a CPU-limited cgroup here (" + e.getMessage() + ")");
        }
    }

    /** The cgroup v1 cpu controller's path in /proc/self/cgroup's lines ("cpu" alone or joined, as "cpu,cpuacct"). */
    static Optional<String> ownPath(List<String> procSelfCgroup) {
        return procSelfCgroup.stream().map(l -> l.split(":", 3))
                .filter(f -> f.length == 3 && List.of(f[1].split(",")).contains("cpu"))
                .map(f -> f[2]).findFirst();
    }

    /** The quota a kubelet writes for a limit of {@code millis} (null: none, -1). */
    static long quotaUs(Long millis) {
        return millis == null ? -1 : Math.max(MIN_QUOTA_US, Math.multiplyExact(millis, PERIOD_US) / 1000);
    }

    public boolean enforced() {
        return base != null;
    }

    /** Why limits are not enforced; empty when they are. */
    public Optional<String> unavailableReason() {
        return Optional.ofNullable(unavailable);
    }

    /** A cgroup at {@code millis} (null: no limit, only the place a resize can give one) for one pod's container. */
    public Limited create(String pod, Long millis) throws IOException {
        Path dir = CgroupDirs.fresh(base, pod);
        writeQuota(dir, millis);
        return new Limited(dir);
    }

    private static void writeQuota(Path dir, Long millis) throws IOException {
        Files.writeString(dir.resolve("cpu.cfs_period_us"), Long.toString(PERIOD_US));
        Files.writeString(dir.resolve("cpu.cfs_quota_us"), Long.toString(quotaUs(millis)));
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

        /** A new limit for the processes already in it (what a kubelet's in-place resize writes); null lifts it. */
        public void limit(Long millis) throws IOException {
            writeQuota(dir, millis);
        }

        public void delete() {
            CgroupDirs.deleteQuietly(dir);
        }
    }
}
