package io.ragsearch.sim.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a kubelet serves on {@code /metrics/resource} (the resource metrics metrics-server scrapes),
 * from the cgroups the node agent manages: CPU time from {@code cpuacct.usage}, memory as the
 * working set — usage minus the inactive file cache, which the kernel can drop at once (the
 * cgroup v1 form of {@code memory.current − inactive_file}; what cAdvisor computes too). The
 * exposition is a pure function of the samples; reading them is at the edge.
 */
final class ResourceMetrics {
    /** The node's totals: the agent's own cgroups, every pod it runs. */
    record NodeUsage(double cpuSeconds, long workingSetBytes) {
    }

    /** One container's counters; {@code started} when its process started (CPU time counts from there). */
    record ContainerUsage(String namespace, String pod, String container, Instant started, double cpuSeconds,
                          long workingSetBytes) {
    }

    private ResourceMetrics() {
    }

    /**
     * The Prometheus text exposition, each sample stamped with {@code at} (milliseconds) as a
     * kubelet stamps them: a scraper computes CPU rates between two stamps, not between two
     * scrapes. A container without both counters is left out, as a kubelet leaves out what
     * it cannot read (metrics-server drops a pod whose CPU or memory is zero anyway).
     */
    static String exposition(Optional<NodeUsage> node, List<ContainerUsage> containers, Instant at) {
        long ms = at.toEpochMilli();
        StringBuilder out = new StringBuilder();
        if (node.isPresent()) {
            family(out, "node_cpu_usage_seconds_total", "counter", "Cumulative cpu time consumed by the node in core-seconds");
            out.append("node_cpu_usage_seconds_total ").append(number(node.get().cpuSeconds())).append(' ').append(ms).append('\n');
            family(out, "node_memory_working_set_bytes", "gauge", "Current working set of the node in bytes");
            out.append("node_memory_working_set_bytes ").append(node.get().workingSetBytes()).append(' ').append(ms).append('\n');
        }
        List<ContainerUsage> complete = containers.stream().filter(c -> c.cpuSeconds() > 0 && c.workingSetBytes() > 0).toList();
        if (!complete.isEmpty()) {
            family(out, "container_cpu_usage_seconds_total", "counter", "Cumulative cpu time consumed by the container in core-seconds");
            complete.forEach(c -> sample(out, "container_cpu_usage_seconds_total", containerLabels(c), number(c.cpuSeconds()), ms));
            family(out, "container_memory_working_set_bytes", "gauge", "Current working set of the container in bytes");
            complete.forEach(c -> sample(out, "container_memory_working_set_bytes", containerLabels(c),
                    Long.toString(c.workingSetBytes()), ms));
            family(out, "container_start_time_seconds", "gauge", "Start time of the container since unix epoch in seconds");
            complete.forEach(c -> sample(out, "container_start_time_seconds", containerLabels(c),
                    number(c.started().toEpochMilli() / 1000.0), ms));
            // one container per pod here: the pod's totals are its container's
            family(out, "pod_cpu_usage_seconds_total", "counter", "Cumulative cpu time consumed by the pod in core-seconds");
            complete.forEach(c -> sample(out, "pod_cpu_usage_seconds_total", podLabels(c), number(c.cpuSeconds()), ms));
            family(out, "pod_memory_working_set_bytes", "gauge", "Current working set of the pod in bytes");
            complete.forEach(c -> sample(out, "pod_memory_working_set_bytes", podLabels(c), Long.toString(c.workingSetBytes()), ms));
        }
        family(out, "scrape_error", "gauge", "1 if there was an error while getting container metrics, 0 otherwise");
        out.append("scrape_error 0\n");
        return out.toString();
    }

    /** CPU time a {@code cpuacct} cgroup counted, in seconds (the file holds nanoseconds). */
    static OptionalLong cpuNanos(Path cpuacct) {
        try {
            return OptionalLong.of(Long.parseLong(Files.readString(cpuacct.resolve("cpuacct.usage")).strip()));
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** A memory cgroup's working set, from {@code memory.usage_in_bytes} and {@code memory.stat}. */
    static OptionalLong workingSetBytes(Path memory) {
        try {
            long usage = Long.parseLong(Files.readString(memory.resolve("memory.usage_in_bytes")).strip());
            return OptionalLong.of(workingSet(usage, Files.readString(memory.resolve("memory.stat"))));
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** Usage minus the inactive file cache (the hierarchical {@code total_} line), never below zero. */
    static long workingSet(long usage, String memoryStat) {
        long inactiveFile = memoryStat.lines().map(l -> l.split(" "))
                .filter(f -> f.length == 2 && f[0].equals("total_inactive_file"))
                .mapToLong(f -> Long.parseLong(f[1])).findFirst().orElse(0);
        return Math.max(0, usage - inactiveFile);
    }

    private static void family(StringBuilder out, String name, String type, String help) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private static void sample(StringBuilder out, String name, String labels, String value, long ms) {
        out.append(name).append('{').append(labels).append("} ").append(value).append(' ').append(ms).append('\n');
    }

    private static String containerLabels(ContainerUsage c) {
        return "container=\"" + escape(c.container()) + "\"," + podLabels(c);
    }

    private static String podLabels(ContainerUsage c) {
        return "namespace=\"" + escape(c.namespace()) + "\",pod=\"" + escape(c.pod()) + "\"";
    }

    /** The exposition format's escapes inside a label value. */
    static String escape(String v) {
        return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    private static String number(double v) {
        return String.format(Locale.ROOT, "%.9f", v);
    }
}
