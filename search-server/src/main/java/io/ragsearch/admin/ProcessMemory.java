package io.ragsearch.admin;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The process's resident memory from /proc (0 where /proc is unavailable). */
public final class ProcessMemory {

    private ProcessMemory() {
    }

    public static long residentBytes() {
        return statusField("VmRSS:");
    }

    public static long peakResidentBytes() {
        return statusField("VmHWM:");
    }

    private static long statusField(String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
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
