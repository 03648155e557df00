package io.ragsearch.sim.node;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The kubelet's resource metrics as the node agent serves them, from cgroup files laid out as the kernel writes them. */
class ResourceMetricsTest {
    private static final long MIB = 1024 * 1024;

    @Test
    void exposesWhatMetricsServerReadsFromTheCgroupCounters(@TempDir Path dir) throws IOException {
        Path cpu = Files.createDirectories(dir.resolve("cpuacct/ns_pod"));
        Files.writeString(cpu.resolve("cpuacct.usage"), "2500000000\n");                  // 2.5 s in nanoseconds
        Path memory = Files.createDirectories(dir.resolve("memory/ns_pod"));
        Files.writeString(memory.resolve("memory.usage_in_bytes"), Long.toString(900 * MIB) + "\n");
        Files.writeString(memory.resolve("memory.stat"), "cache 123\ninactive_file 999\ntotal_cache 400\n"
                + "total_inactive_file " + (300 * MIB) + "\ntotal_active_file 5\n");

        double cpuSeconds = ResourceMetrics.cpuNanos(cpu).orElseThrow() / 1e9;
        long workingSet = ResourceMetrics.workingSetBytes(memory).orElseThrow();
        assertEquals(2.5, cpuSeconds, 1e-9);
        assertEquals(600 * MIB, workingSet, "usage minus the hierarchical inactive file cache");

        Instant started = Instant.parse("2026-12-06T10:00:00.250Z");
        Instant at = Instant.parse("2026-12-06T10:05:00Z");
        String text = ResourceMetrics.exposition(Optional.of(new ResourceMetrics.NodeUsage(7.25, 2048 * MIB)),
                List.of(new ResourceMetrics.ContainerUsage("search", "rules-7d9f-abcde", "server", started, cpuSeconds, workingSet)), at);
        long ms = at.toEpochMilli();
        String labels = "{container=\"server\",namespace=\"search\",pod=\"rules-7d9f-abcde\"}";
        List<String> lines = text.lines().toList();
        assertTrue(lines.contains("node_cpu_usage_seconds_total 7.250000000 " + ms), text);
        assertTrue(lines.contains("node_memory_working_set_bytes " + 2048 * MIB + " " + ms), text);
        assertTrue(lines.contains("container_cpu_usage_seconds_total" + labels + " 2.500000000 " + ms), text);
        assertTrue(lines.contains("container_memory_working_set_bytes" + labels + " " + 600 * MIB + " " + ms), text);
        assertTrue(lines.contains("container_start_time_seconds" + labels + " 1796551200.250000000 " + ms), text);
        assertTrue(lines.contains("pod_cpu_usage_seconds_total{namespace=\"search\",pod=\"rules-7d9f-abcde\"} 2.500000000 " + ms), text);
        assertTrue(lines.contains("pod_memory_working_set_bytes{namespace=\"search\",pod=\"rules-7d9f-abcde\"} " + 600 * MIB + " " + ms), text);
        assertTrue(lines.contains("# TYPE container_cpu_usage_seconds_total counter"), text);
        assertTrue(lines.contains("# TYPE container_memory_working_set_bytes gauge"), text);
        assertTrue(lines.contains("scrape_error 0"), text);
    }

    @Test
    void aContainerWithoutBothCountersAndAMissingFileAreLeftOut(@TempDir Path dir) throws IOException {
        assertTrue(ResourceMetrics.cpuNanos(dir).isEmpty(), "no cpuacct.usage: nothing, not zero");
        Files.writeString(dir.resolve("memory.usage_in_bytes"), "not a number");
        Files.writeString(dir.resolve("memory.stat"), "");
        assertTrue(ResourceMetrics.workingSetBytes(dir).isEmpty());
        assertEquals(0, ResourceMetrics.workingSet(100, "total_inactive_file 150\n"), "never below zero");

        String text = ResourceMetrics.exposition(Optional.empty(), List.of(
                new ResourceMetrics.ContainerUsage("ns", "fresh", "server", Instant.EPOCH, 0, 5 * MIB)), Instant.EPOCH);
        assertFalse(text.contains("node_"), text);
        assertFalse(text.contains("fresh"), "a container with no CPU time yet is not reported (metrics-server drops it)");
        assertTrue(text.contains("scrape_error 0"), text);
    }

    @Test
    void labelValuesAreEscaped() {
        assertEquals("a\\\"b\\\\c\\nd", ResourceMetrics.escape("a\"b\\c\nd"));
    }
}
