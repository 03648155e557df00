package io.ragsearch.calibrate;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The peak of a memory counter over a burst: the kernel's high-water mark when it could be
 * reset at the start, and a 2 ms sampler in any case (a counter that cannot be reset would
 * otherwise report an older, higher peak).
 */
public final class PeakTracker implements AutoCloseable {

    private static final long SAMPLE_MILLIS = 2;

    private final MemoryProbe probe;
    private final boolean kernelPeakReset;
    private final AtomicLong sampled;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread sampler;

    public PeakTracker(MemoryProbe probe) {
        this.probe = probe;
        this.kernelPeakReset = probe.resetPeak();
        this.sampled = new AtomicLong(probe.current());
        this.sampler = new Thread(() -> {
            while (running.get()) {
                sampled.accumulateAndGet(probe.current(), Math::max);
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

    /** The peak so far. */
    public long peak() {
        long s = Math.max(sampled.get(), probe.current());
        return kernelPeakReset ? Math.max(s, probe.peak()) : s;
    }

    @Override
    public void close() {
        running.set(false);
        sampler.interrupt();
    }
}
