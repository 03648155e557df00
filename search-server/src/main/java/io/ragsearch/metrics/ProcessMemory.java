package io.ragsearch.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The process's resident memory from /proc (0 where /proc is unavailable). */
public final class ProcessMemory {

    private ProcessMemory() {
    }

    public static long residentBytes() {
        return statusField(Path.of("/proc/self/status"), "VmRSS:");
    }

    public static long peakResidentBytes() {
        return statusField(Path.of("/proc/self/status"), "VmHWM:");
    }

    /** A kB field of a /proc/PID/status file, in bytes (0 when unreadable). */
    public static long statusField(Path status, String field) {
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith(field)) {
                    String[] parts = line.substring(field.length()).trim().split("\\s+");
                    return Long.parseLong(parts[0]) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }
}
