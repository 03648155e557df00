package io.ragsearch.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Method selection and counter arithmetic on cgroup trees laid out as the kernel shows them. */
class MemoryProbeTest {

    @TempDir
    Path root;

    private final long pid = ProcessHandle.current().pid();

    private Path procCgroup(String content) throws IOException {
        Path f = root.resolve("proc-self-cgroup");
        Files.writeString(f, content);
        return f;
    }

    @Test
    void cgroupV2AloneIsUsedWithItsWorkingSetAndLimit() throws IOException {
        Path cg = Files.createDirectories(root.resolve("fs/kubepods/pod1"));
        Files.writeString(cg.resolve("memory.current"), "900000000\n");
        Files.writeString(cg.resolve("memory.stat"), "anon 700000000\nactive_file 80000000\ninactive_file 100000000\n");
        Files.writeString(cg.resolve("memory.max"), "1572864000\n");
        Files.writeString(cg.resolve("cgroup.procs"), pid + "\n");
        MemoryProbe probe = MemoryProbe.detect(procCgroup("0::/kubepods/pod1\n"), root.resolve("fs"), pid);
        assertEquals(MemoryProbe.Method.CGROUP_V2, probe.method());
        assertEquals(800_000_000L, probe.current(), "usage minus inactive file cache");
        assertEquals(1_572_864_000L, probe.limit().orElseThrow());
        assertFalse(probe.hasKernelPeak(), "cgroup peaks include page cache: sampled instead");

        Files.writeString(cg.resolve("memory.max"), "max\n");
        assertTrue(MemoryProbe.detect(procCgroup("0::/kubepods/pod1\n"), root.resolve("fs"), pid).limit().isEmpty());
    }

    @Test
    void cgroupV1InsideAContainerNamespaceIsFoundAtTheMountRoot() throws IOException {
        Path cg = Files.createDirectories(root.resolve("fs/memory"));
        Files.writeString(cg.resolve("memory.usage_in_bytes"), "500000000\n");
        Files.writeString(cg.resolve("memory.stat"), "cache 1\ntotal_inactive_file 50000000\n");
        Files.writeString(cg.resolve("memory.limit_in_bytes"), "9223372036854771712\n");
        Files.writeString(cg.resolve("cgroup.procs"), pid + "\n");
        MemoryProbe probe = MemoryProbe.detect(procCgroup("4:memory:/docker/abc\n0::/\n"), root.resolve("fs"), pid);
        assertEquals(MemoryProbe.Method.CGROUP_V1, probe.method());
        assertEquals(450_000_000L, probe.current());
        assertTrue(probe.limit().isEmpty(), "the v1 'unlimited' sentinel is no limit");
    }

    @Test
    void aCgroupSharedWithAProcessThatIsNotOursFallsBackToRss() throws IOException {
        Path cg = Files.createDirectories(root.resolve("fs/session"));
        Files.writeString(cg.resolve("memory.current"), "900000000\n");
        Files.writeString(cg.resolve("cgroup.procs"), pid + "\n999999999\n");
        MemoryProbe probe = MemoryProbe.detect(procCgroup("0::/session\n"), root.resolve("fs"), pid);
        assertEquals(MemoryProbe.Method.RSS, probe.method());
        assertTrue(probe.reason().contains("also holds other processes"), probe.reason());
        assertTrue(!probe.reason().contains("999999999") && !probe.reason().contains(root.toString()),
                "/calibration is unauthenticated: no PID, no host path: " + probe.reason());
        assertTrue(probe.current() > 10_000_000L, "RSS of this JVM");
        assertTrue(probe.hasKernelPeak());
    }

    @Test
    void noCgroupInformationMeansRss() throws IOException {
        MemoryProbe probe = MemoryProbe.detect(root.resolve("absent"), root.resolve("fs"), pid);
        assertEquals(MemoryProbe.Method.RSS, probe.method());
        assertEquals("rss", probe.method().wire());
    }
}
