package io.ragsearch.calibrate;

import java.util.Optional;

/**
 * Splits the process's memory into the JVM heap and everything else. With the heap's residency
 * counted ({@link HeapResidency}), the heap is charged once, at its whole reservation, and only
 * memory outside it is measured at rest and at peak; without it, the counter is read whole and
 * the heap the JVM may still commit is added, as before the split (docs/memory.md).
 */
final class MemoryAccounting {

    private final MemoryProbe probe;
    private final Optional<HeapResidency> heap;

    MemoryAccounting(MemoryProbe probe, Optional<HeapResidency> heap) {
        this.probe = probe;
        this.heap = heap;
    }

    boolean heapCounted() {
        return heap.isPresent();
    }

    /** The heap's resident bytes now (0 when not counted: then the heap is inside every reading). */
    long heapResident() {
        return heap.map(HeapResidency::residentBytes).orElse(0L);
    }

    /** The counter now, less the heap's resident bytes. */
    long outsideHeap() {
        long h = heapResident();
        return probe.current() - h;
    }

    /**
     * What resident adds for the heap: its whole reservation when its residency is counted; else
     * the heap the JVM may still commit up to its maximum (the committed part is in the readings).
     */
    long heapCharge() {
        if (heap.isPresent()) {
            return heap.get().reservedBytes();
        }
        Runtime rt = Runtime.getRuntime();
        return Math.max(0, rt.maxMemory() - rt.totalMemory());
    }

    PeakTracker track() {
        return new PeakTracker(probe, this::heapResident);
    }

    /** For the calibration's methodReason. */
    String describe() {
        return heap.map(h -> "heap charged at its reservation (" + (h.reservedBytes() >> 20)
                + " MiB), memory outside it measured (heap pages counted by mincore)")
                .orElse("heap not separable: readings include it, plus the heap still to commit");
    }
}
