package io.ragsearch.sim.node;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A pod's containers as processes: the init containers one after another, then the main one, in
 * a memory cgroup at the container's limit where the machine allows it (so an overrun is an OOM
 * kill, as in a cluster), and a cpu cgroup at its CPU limit likewise (a CFS quota).
 */
final class ContainerProcess {
    private final ContainerLauncher launcher;
    private final MemoryCgroups cgroups;
    private final CpuAccounting cpu;
    private final CpuCgroups cpuLimits;
    private final String namespace;
    private final String pod;
    private final String ip;
    private final Path podDir;
    private MemoryCgroups.Limited cgroup;
    private Path cpuacct;
    private CpuCgroups.Limited cpuCgroup;

    ContainerProcess(ContainerLauncher launcher, MemoryCgroups cgroups, CpuAccounting cpu, CpuCgroups cpuLimits, String namespace,
                     String pod, String ip, Path podDir) {
        this.launcher = launcher;
        this.cgroups = cgroups;
        this.cpu = cpu;
        this.cpuLimits = cpuLimits;
        this.namespace = namespace;
        this.pod = pod;
        this.ip = ip;
        this.podDir = podDir;
    }

    /** Runs each init container to its end; one that fails stops the pod's start. */
    void runInit(List<Container> inits, Map<String, Path> volumes, java.util.function.Consumer<String> onEach)
            throws IOException, InterruptedException {
        for (Container init : inits == null ? List.<Container>of() : inits) {
            onEach.accept(init.getName());
            int code = launcher.start(namespace, pod, ip, init, volumes, null, podDir).process().waitFor();
            if (code != 0) {
                throw new IOException("init container " + init.getName() + " exited with " + code + " (see " + podDir + ")");
            }
        }
    }

    /** Starts the main container (in its cgroup when limits are enforced here). */
    synchronized Process start(Container main, Map<String, Path> volumes) throws IOException {
        Long limit = memoryLimit(main);
        if (cgroups.enforced() && limit != null) {
            cgroup = cgroups.create(namespace + "_" + pod, limit);
        }
        cpuacct = cpu.create(namespace + "_" + pod).orElse(null);
        if (cpuLimits.enforced()) {
            // Without a limit too: the quota is where a resize would put one.
            cpuCgroup = cpuLimits.create(namespace + "_" + pod, cpuLimit(main));
        }
        List<Path> others = new java.util.ArrayList<>();
        if (cpuacct != null) {
            others.add(cpuacct);
        }
        if (cpuCgroup != null && !others.contains(cpuCgroup.dir())) { // one directory where cpu and cpuacct are mounted together
            others.add(cpuCgroup.dir());
        }
        return launcher.start(namespace, pod, ip, main, volumes, cgroup, others, podDir).process();
    }

    /** CPU time of the running main container (its accounting cgroup), in nanoseconds. */
    synchronized java.util.OptionalLong cpuNanos() {
        return cpuacct == null ? java.util.OptionalLong.empty() : ResourceMetrics.cpuNanos(cpuacct);
    }

    /** Memory working set of the running main container (its memory cgroup). */
    synchronized java.util.OptionalLong workingSetBytes() {
        return cgroup == null ? java.util.OptionalLong.empty() : ResourceMetrics.workingSetBytes(cgroup.dir());
    }

    /**
     * Moves the running container's memory limit (an in-place resize). The kernel refuses a limit
     * below what the cgroup holds and cannot reclaim (EBUSY): that is an IOException, and the
     * limit stays as it was.
     */
    synchronized void resizeMemory(long bytes) throws IOException {
        if (cgroup != null) {
            cgroup.limit(bytes);
        }
    }

    /** Moves the running container's CPU limit (an in-place resize): its quota; null lifts it. */
    synchronized void resizeCpu(Long millis) throws IOException {
        if (cpuCgroup != null) {
            cpuCgroup.limit(millis);
        }
    }

    /** Whether the kernel OOM-killed something in the current cgroup. */
    synchronized boolean oomKilled() {
        return cgroup != null && cgroup.oomKills() > 0;
    }

    /** The run ended: its cgroup goes. */
    synchronized void release() {
        if (cgroup != null) {
            cgroup.delete();
            cgroup = null;
        }
        if (cpuacct != null) {
            CpuAccounting.delete(cpuacct);
            cpuacct = null;
        }
        if (cpuCgroup != null) {
            cpuCgroup.delete();
            cpuCgroup = null;
        }
    }

    /** SIGTERM, then SIGKILL after the grace period. */
    static void stop(Process p, long graceMillis) {
        if (p == null || !p.isAlive()) {
            return;
        }
        p.destroy();
        try {
            if (!p.waitFor(graceMillis, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
        }
    }

    private static Long memoryLimit(Container c) {
        if (c.getResources() == null || c.getResources().getLimits() == null) {
            return null;
        }
        Quantity q = c.getResources().getLimits().get("memory");
        return q == null ? null : Quantity.getAmountInBytes(q).longValue();
    }

    /** The container's CPU limit in millicores, null without one. */
    private static Long cpuLimit(Container c) {
        if (c.getResources() == null || c.getResources().getLimits() == null || c.getResources().getLimits().get("cpu") == null) {
            return null;
        }
        return PodResize.millis(c.getResources().getLimits(), "cpu");
    }
}
