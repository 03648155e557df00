package io.ragsearch.calibrate;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The peak of a memory counter over a burst, in all and outside the JVM heap: the kernel's
 * high-water mark when it could be reset at the start, and a 2 ms sampler in any case (a counter
 * that cannot be reset would otherwise report an older, higher peak).
 */
public final class PeakTracker implements AutoCloseable {

    private static final long SAMPLE_MILLIS = 2;

    private final MemoryProbe probe;
    private final LongSupplier heapResident;
    private final boolean kernelPeakReset;
    private final AtomicLong sampled;
    private final AtomicLong sampledOutsideHeap;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread sampler;

    /** {@code heapResident}: the heap's resident bytes now, subtracted for {@link #peakOutsideHeap()}. */
    public PeakTracker(MemoryProbe probe, LongSupplier heapResident) {
        this.probe = probe;
        this.heapResident = heapResident;
        this.kernelPeakReset = probe.resetPeak();
        this.sampled = new AtomicLong(0);
        this.sampledOutsideHeap = new AtomicLong(0);
        sample();
        this.sampler = new Thread(() -> {
            while (running.get()) {
                sample();
                try {
                    Thread.sleep(SAMPLE_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "memory-peak-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    private void sample() {
        long heap = heapResident.getAsLong();
        long now = probe.current();
        sampled.accumulateAndGet(now, Math::max);
        sampledOutsideHeap.accumulateAndGet(now - heap, Math::max);
    }

    /** The peak so far. */
    public long peak() {
        long s = Math.max(sampled.get(), probe.current());
        return kernelPeakReset ? Math.max(s, probe.peak()) : s;
    }

    /**
     * The peak outside the heap so far: the sampled one, or the kernel's peak less the heap's
     * residency now, whichever is higher. The second catches a spike between two samples; a heap
     * that grew since the spike makes it an under-count (the sampled figure then stands), one that
     * shrank an over-count (safe: it can only raise the cost).
     */
    public long peakOutsideHeap() {
        long s = sampledOutsideHeap.get();
        return kernelPeakReset ? Math.max(s, probe.peak() - heapResident.getAsLong()) : s;
    }

    @Override
    public void close() {
        running.set(false);
        sampler.interrupt();
    }
}
