package io.ragsearch.calibrate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The heap's bounds from the JVM's own report, and its resident pages counted in this JVM. */
class HeapResidencyTest {

    @Test
    void readsTheBoundsOfOneHeapOrOfEveryGeneration() {
        String g1 = " garbage-first heap   total 262144K, used 10620K [0x00000000f0000000, 0x0000000100000000)\n"
                + "  region size 1024K, 3 young (3072K), 2 survivors (2048K)\n"
                + " Metaspace       used 12450K, committed 12672K, reserved 1114112K\n";
        assertArrayEquals(new long[] {0xf0000000L, 0x100000000L}, HeapResidency.heapRange(g1).orElseThrow());
        String serial = " def new generation   total 4928K, used 3136K [0x00000000f0600000, 0x00000000f0b50000, 0x00000000f5550000)\n"
                + "  eden space 4416K,  71% used [0x00000000f0600000, 0x00000000f0a50000, 0x00000000f0a50000)\n"
                + " tenured generation   total 10944K, used 0K [0x00000000f5550000, 0x00000000f6000000, 0x0000000100000000)\n";
        assertArrayEquals(new long[] {0xf0600000L, 0x100000000L}, HeapResidency.heapRange(serial).orElseThrow());
    }

    @Test
    void aReportWithoutUsableBoundsCountsNothingRatherThanTheWrongRange() {
        assertTrue(HeapResidency.heapRange(" Shenandoah Heap\n 2048M max, 0 regions\n").isEmpty());
        assertTrue(HeapResidency.heapRange("heap [0x0000000000001001, 0x0000000000002000)").isEmpty(), "unaligned");
        assertTrue(HeapResidency.heapRange("heap [0x0000000000002000, 0x0000000000001000)").isEmpty(), "reversed");
    }

    @Test
    void liveDataIsCountedAsResidentAndNothingBeyondTheReservation() {
        Optional<HeapResidency> located = HeapResidency.locate();
        assertTrue(located.isPresent(), "Linux, glibc and a HotSpot collector that reports its bounds");
        HeapResidency heap = located.get();
        assertTrue(heap.reservedBytes() >= Runtime.getRuntime().maxMemory(),
                heap.reservedBytes() + " reserved, max " + Runtime.getRuntime().maxMemory());

        // Live objects are in resident pages by definition: 128 MiB held must be counted.
        List<byte[]> live = new ArrayList<>();
        for (int i = 0; i < 128; i++) {
            byte[] mib = new byte[1 << 20];
            Arrays.fill(mib, (byte) i);
            live.add(mib);
        }
        long resident = heap.residentBytes();
        assertTrue(resident >= 128L << 20, "128 MiB held, " + (resident >> 20) + " MiB counted");
        assertTrue(resident <= heap.reservedBytes(), resident + " of " + heap.reservedBytes());
        assertTrue(live.get(127)[0] == 127);
    }
}
