package io.ragsearch.server;

import io.ragsearch.metrics.Metrics;
import io.ragsearch.metrics.ProcessMemory;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.RuntimeMXBean;
import java.lang.management.ThreadMXBean;

/**
 * The process's memory and the embedding model's work. Besides our own names, the standard
 * process and JVM names dashboards already know ({@code process_*} as the Prometheus client
 * libraries export them, {@code jvm_*} as the Java client's collectors do), so a stock
 * dashboard works without a mapping.
 */
final class ProcessGauges {

    private ProcessGauges() {
    }

    static void register(Metrics metrics, EmbeddingModelHolder embedding) {
        metrics.gauge("ragsearch_process_resident_bytes", "Resident set size of the server process", ProcessMemory::residentBytes);
        metrics.gauge("ragsearch_process_peak_resident_bytes", "Peak resident set size of the server process",
                ProcessMemory::peakResidentBytes);
        // Only ever grows: a counter (it was a gauge with a counter's name).
        metrics.counterFunction("ragsearch_embedding_texts_total", "Texts embedded since start (articles at indexing, queries)",
                () -> embedding.loaded().map(e -> e.textsEmbedded()).orElse(0L));
        standard(metrics);
    }

    static void standard(Metrics metrics) {
        RuntimeMXBean runtime = ManagementFactory.getRuntimeMXBean();
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        metrics.gauge("process_resident_memory_bytes", "Resident memory size in bytes", ProcessMemory::residentBytes);
        metrics.gauge("process_start_time_seconds", "Start time of the process since the Unix epoch in seconds",
                () -> runtime.getStartTime() / 1000.0);
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            metrics.counterFunction("process_cpu_seconds_total", "Total user and system CPU time spent in seconds",
                    () -> unix.getProcessCpuTime() / 1e9);
            metrics.gauge("process_open_fds", "Number of open file descriptors", unix::getOpenFileDescriptorCount);
            metrics.gauge("process_max_fds", "Maximum number of open file descriptors", unix::getMaxFileDescriptorCount);
        }
        metrics.gauge("jvm_memory_used_bytes", "Used bytes of a given JVM memory area", "area=\"heap\"",
                () -> memory.getHeapMemoryUsage().getUsed());
        metrics.gauge("jvm_memory_used_bytes", "Used bytes of a given JVM memory area", "area=\"nonheap\"",
                () -> memory.getNonHeapMemoryUsage().getUsed());
        metrics.gauge("jvm_memory_committed_bytes", "Committed bytes of a given JVM memory area", "area=\"heap\"",
                () -> memory.getHeapMemoryUsage().getCommitted());
        metrics.gauge("jvm_memory_committed_bytes", "Committed bytes of a given JVM memory area", "area=\"nonheap\"",
                () -> memory.getNonHeapMemoryUsage().getCommitted());
        metrics.gauge("jvm_memory_max_bytes", "Max bytes of a given JVM memory area (-1: undefined)", "area=\"heap\"",
                () -> memory.getHeapMemoryUsage().getMax());
        metrics.gauge("jvm_threads_current", "Current thread count of the JVM", threads::getThreadCount);
        metrics.gauge("jvm_threads_peak", "Peak thread count of the JVM", threads::getPeakThreadCount);
    }
}
