package io.ragsearch.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CPU limit from the files a kubelet writes, on cgroup trees laid out as the kernel shows them. */
class CpuLimitTest {

    @TempDir
    Path root;

    private Path procCgroup(String content) throws IOException {
        Path f = root.resolve("proc-self-cgroup");
        Files.writeString(f, content);
        return f;
    }

    @Test
    void cpuMaxIsQuotaOverPeriodAndMaxIsNone() {
        assertEquals(OptionalLong.of(1500), CpuLimit.parseCpuMax("150000 100000\n"));
        assertEquals(OptionalLong.of(2000), CpuLimit.parseCpuMax("200000 100000"));
        assertEquals(OptionalLong.of(250), CpuLimit.parseCpuMax("12500 50000\n"), "another period");
        assertEquals(OptionalLong.empty(), CpuLimit.parseCpuMax("max 100000\n"));
        assertEquals(OptionalLong.empty(), CpuLimit.parseCpuMax(""));
        assertEquals(OptionalLong.empty(), CpuLimit.parseCpuMax("garbage"));
    }

    @Test
    void cfsQuotaMinusOneIsNoneAndTheSmallestQuotaIsStillALimit() {
        assertEquals(OptionalLong.of(1000), CpuLimit.parseCfs("100000\n", "100000\n"));
        assertEquals(OptionalLong.empty(), CpuLimit.parseCfs("-1\n", "100000\n"));
        assertEquals(OptionalLong.of(10), CpuLimit.parseCfs("1000", "100000"), "the kernel's 1 ms minimum: 10m");
        assertEquals(OptionalLong.empty(), CpuLimit.parseCfs("100000", "0"));
    }

    @Test
    void cgroupV2IsReadAtTheProcessPathAndFollowsARewrite() throws IOException {
        Path cg = Files.createDirectories(root.resolve("fs/kubepods/pod1/c1"));
        Files.writeString(cg.resolve("cpu.max"), "200000 100000\n");
        CpuLimit limit = CpuLimit.detect(procCgroup("0::/kubepods/pod1/c1\n"), root.resolve("fs")).orElseThrow();
        assertEquals(OptionalLong.of(2000), limit.read());
        Files.writeString(cg.resolve("cpu.max"), "100000 100000\n"); // what an in-place resize writes
        assertEquals(OptionalLong.of(1000), limit.read());
        Files.writeString(cg.resolve("cpu.max"), "max 100000\n");
        assertEquals(OptionalLong.empty(), limit.read());
    }

    @Test
    void cgroupV1TakesTheCpuControllersLineAlsoJoinedWithCpuacctAndTheMountRootInANamespace() throws IOException {
        Path own = Files.createDirectories(root.resolve("fs/cpu/ragsearch-node-1-1/ns_pod"));
        Files.writeString(own.resolve("cpu.cfs_quota_us"), "150000\n");
        Files.writeString(own.resolve("cpu.cfs_period_us"), "100000\n");
        CpuLimit limit = CpuLimit.detect(procCgroup("4:memory:/elsewhere\n2:cpuacct:/\n1:cpu:/ragsearch-node-1-1/ns_pod\n0::/\n"),
                root.resolve("fs")).orElseThrow();
        assertEquals(OptionalLong.of(1500), limit.read());
        assertEquals(own, limit.where(), "cpuacct alone is not the cpu controller");

        Path mountRoot = root.resolve("fs/cpu");
        Files.writeString(mountRoot.resolve("cpu.cfs_quota_us"), "-1\n");
        Files.writeString(mountRoot.resolve("cpu.cfs_period_us"), "100000\n");
        CpuLimit inContainer = CpuLimit.detect(procCgroup("3:cpu,cpuacct:/docker/abc\n"), root.resolve("fs")).orElseThrow();
        assertEquals(mountRoot, inContainer.where(), "the namespace shows the container's cgroup as the root");
        assertEquals(OptionalLong.empty(), inContainer.read(), "quota -1: no limit");
    }

    @Test
    void aFileOfCpuMaxsFormatElsewhere() throws IOException {
        Path file = root.resolve("cpu.max");
        Files.writeString(file, "300000 100000\n");
        CpuLimit limit = CpuLimit.ofFile(file);
        assertEquals(OptionalLong.of(3000), limit.read());
        Files.delete(file);
        assertEquals(OptionalLong.empty(), limit.read(), "gone: no limit to follow");
    }

    @Test
    void noCpuCgroupToReadIsEmpty() throws IOException {
        assertTrue(CpuLimit.detect(procCgroup("4:memory:/x\n0::/\n"), root.resolve("fs")).isEmpty());
        assertTrue(CpuLimit.detect(root.resolve("missing"), root.resolve("fs")).isEmpty());
    }
}
