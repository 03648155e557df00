package io.ragsearch.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What the numbers were measured on, and the CPU's peak per core, derived from /proc/cpuinfo:
 * {@code fp32PerCycle} single-precision FLOPs and {@code int8PerCycle} int8 operations (a
 * multiply and an add each) per cycle and core, at {@code mhz} (the frequency the kernel
 * reports; under a hypervisor the nominal one, turbo not counted).
 */
record Machine(String cpu, int cores, double mhz, String vector, double peakGflops, long memoryBytes, String java,
               int fp32PerCycle, int int8PerCycle, String peakBasis) {

    static Machine describe() {
        String cpu = "unknown";
        String vendor = "";
        int family = 0;
        double mhz = 0;
        String flags = "";
        try {
            List<String> info = Files.readAllLines(Path.of("/proc/cpuinfo"));
            for (String line : info) {
                String value = line.substring(line.indexOf(':') + 1).trim();
                if (line.startsWith("model name") && cpu.equals("unknown")) {
                    cpu = value;
                } else if (line.startsWith("vendor_id") && vendor.isEmpty()) {
                    vendor = value;
                } else if (line.startsWith("cpu family") && family == 0) {
                    family = Integer.parseInt(value);
                } else if (line.startsWith("cpu MHz") && mhz == 0) {
                    mhz = Double.parseDouble(value);
                } else if (line.startsWith("flags") && flags.isEmpty()) {
                    flags = line + " ";
                }
            }
        } catch (IOException | NumberFormatException e) {
            // described as unknown
        }
        Peak peak = Peak.of(flags, vendor, family);
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
        return new Machine(cpu, cores, mhz, peak.vector(), cores * mhz / 1000 * peak.fp32(), memory,
                System.getProperty("java.vm.name") + " " + System.getProperty("java.version"),
                peak.fp32(), peak.int8(), peak.basis());
    }

    /** Single-precision peak of one core, GFLOP/s. */
    double fp32PeakPerCore() {
        return mhz / 1000 * fp32PerCycle;
    }

    /** int8 peak of one core, GOP/s (the dot-product instructions ONNX Runtime's int8 GEMM uses). */
    double int8PeakPerCore() {
        return mhz / 1000 * int8PerCycle;
    }

    /** Operations per cycle and core, and how they were derived. */
    record Peak(String vector, int fp32, int int8, String basis) {

        /**
         * Two vector FMA pipes per core on every x86 core counted here; what differs is their
         * width. Intel cores with AVX-512 have two 512-bit FMA units (16 floats × 2 ops × 2);
         * AMD Zen 4 (family 25 with AVX-512) runs 512-bit instructions on 256-bit units, so it
         * has the AVX2 rate (8 × 2 × 2). int8: VPDPBUSD does 4 multiply-adds per 32-bit lane, so
         * 4× the fp32 rate with AVX-512 VNNI or AVX-VNNI; AVX2 without VNNI needs two
         * instructions (VPMADDUBSW, VPMADDWD) for the same work, 2×. AMX-INT8 (one 16×16×64 tile
         * product per 16 cycles: 1024 multiply-adds per cycle) is far above both.
         */
        static Peak of(String flags, String vendor, int family) {
            boolean avx512 = flags.contains(" avx512f ");
            boolean avx2 = flags.contains(" avx2 ");
            boolean halfWidth = avx512 && vendor.equals("AuthenticAMD") && family == 25;
            String vector = avx512 ? "AVX-512" : avx2 ? "AVX2" : "SSE";
            int fp32 = avx512 && !halfWidth ? 64 : avx2 || avx512 ? 32 : 8;
            boolean vnni = flags.contains(" avx512_vnni ") || flags.contains(" avx_vnni ");
            boolean amx = flags.contains(" amx_int8 ");
            int int8 = amx ? 2048 : vnni ? 4 * fp32 : 2 * fp32;
            String basis = vector + (halfWidth ? " on 256-bit units (AMD family 25)" : "") + ", 2 FMA pipes: " + fp32
                    + " fp32 FLOP/cycle; int8 " + int8 + " op/cycle ("
                    + (amx ? "AMX-INT8" : vnni ? "VNNI, 4 multiply-adds per 32-bit lane" : "no VNNI") + ")";
            return new Peak(vector, fp32, int8, basis);
        }
    }
}
