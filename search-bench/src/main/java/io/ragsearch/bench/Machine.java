package io.ragsearch.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** What the numbers were measured on, and a rough single-precision peak for this CPU. */
record Machine(String cpu, int cores, double mhz, String vector, double peakGflops, long memoryBytes, String java) {

    static Machine describe() {
        String cpu = "unknown";
        double mhz = 0;
        String flags = "";
        try {
            List<String> info = Files.readAllLines(Path.of("/proc/cpuinfo"));
            for (String line : info) {
                if (line.startsWith("model name") && cpu.equals("unknown")) {
                    cpu = line.substring(line.indexOf(':') + 1).trim();
                } else if (line.startsWith("cpu MHz") && mhz == 0) {
                    mhz = Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
                } else if (line.startsWith("flags") && flags.isEmpty()) {
                    flags = line;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // described as unknown
        }
        // FLOPs per cycle per core with two FMA units: 16 floats × 2 × 2 (AVX-512), 8 × 2 × 2 (AVX2).
        String vector = flags.contains(" avx512f") ? "AVX-512" : flags.contains(" avx2") ? "AVX2" : "SSE";
        int perCycle = vector.equals("AVX-512") ? 64 : vector.equals("AVX2") ? 32 : 8;
        int cores = Runtime.getRuntime().availableProcessors();
        long memory = 0;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    memory = Long.parseLong(line.replaceAll("\\D+", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // unknown
        }
        return new Machine(cpu, cores, mhz, vector, cores * mhz / 1000 * perCycle, memory,
                System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    }
}
