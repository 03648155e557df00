package io.ragsearch.sim.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The quota a CPU limit becomes, and where the agent's own cpu cgroup is: what a kubelet writes, from what the kernel shows. */
class CpuCgroupsTest {

    @TempDir
    Path dir;

    @Test
    void aLimitIsItsShareOfTheHundredMillisecondPeriod() {
        assertEquals(200_000, CpuCgroups.quotaUs(2000L));
        assertEquals(150_000, CpuCgroups.quotaUs(1500L));
        assertEquals(1_000, CpuCgroups.quotaUs(5L), "below the kernel's 1 ms: raised to it, as a kubelet does");
        assertEquals(-1, CpuCgroups.quotaUs(null), "no limit");
    }

    @Test
    void theCpuControllersLineAloneOrJoinedWithCpuacct() {
        assertEquals(Optional.of("/"), CpuCgroups.ownPath(List.of("4:memory:/process_api/x", "2:cpuacct:/", "1:cpu:/", "0::/")));
        assertEquals(Optional.of("/user.slice"), CpuCgroups.ownPath(List.of("3:cpu,cpuacct:/user.slice", "0::/")));
        assertTrue(CpuCgroups.ownPath(List.of("2:cpuacct:/", "0::/user.slice")).isEmpty(), "cgroup v2 only, or cpuacct alone");
    }

    @Test
    void aResizeRewritesTheQuotaAtTheKubeletsPeriod() throws IOException {
        CpuCgroups.Limited pod = new CpuCgroups.Limited(dir);
        pod.limit(1000L);
        assertEquals("100000", Files.readString(dir.resolve("cpu.cfs_quota_us")));
        assertEquals("100000", Files.readString(dir.resolve("cpu.cfs_period_us")));
        pod.limit(2000L);
        assertEquals("200000", Files.readString(dir.resolve("cpu.cfs_quota_us")));
        pod.limit(null);
        assertEquals("-1", Files.readString(dir.resolve("cpu.cfs_quota_us")));
    }
}
