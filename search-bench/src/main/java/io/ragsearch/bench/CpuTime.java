package io.ragsearch.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * CPU time, beside wall time: on cores shared with other work, wall time measures the
 * neighbours as much as the code; CPU time is what the code itself cost.
 */
final class CpuTime {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private CpuTime() {
    }

    /** This thread's CPU nanoseconds. */
    static long thread() {
        return THREADS.getCurrentThreadCpuTime();
    }

    /** The whole process's CPU nanoseconds (every thread, the collector's included); -1 when unknown. */
    static long process() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
    }
}
