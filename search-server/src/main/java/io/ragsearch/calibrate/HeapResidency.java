package io.ragsearch.calibrate;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.lang.management.ManagementFactory;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How much of the JVM heap's reservation is resident right now, counted page by page with
 * {@code mincore}. The heap's pages become resident only as garbage cycles through them, so a
 * rest level read from RSS mixes heap growth with native memory; with this count the calibration
 * separates the two and charges the heap once, at its full reservation (the most it can ever hold).
 */
public final class HeapResidency {

    private static final Logger LOG = LoggerFactory.getLogger(HeapResidency.class);
    private static final long PAGE = 4096;
    /** gcHeapInfo lists the heap's (or each generation's) bounds as [start, ..., end) in hex. */
    private static final Pattern RANGE = Pattern.compile("\\[(0x[0-9a-f]+)(?:, 0x[0-9a-f]+)*, (0x[0-9a-f]+)\\)");

    interface CLibrary extends Library {
        int mincore(Pointer address, long length, byte[] residency);
    }

    private final CLibrary c;
    private final long start;
    private final long end;
    // One buffer, one page a byte: callers sample from one thread at a time (a burst's sampler or
    // the calibration thread between bursts), and the count is a few hundred microseconds.
    private final byte[] pages;

    private HeapResidency(CLibrary c, long start, long end) {
        this.c = c;
        this.start = start;
        this.end = end;
        this.pages = new byte[(int) ((end - start) / PAGE)];
    }

    /** The heap's reservation and a way to count its resident pages, where the JVM and libc allow it. */
    public static Optional<HeapResidency> locate() {
        try {
            String info = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcHeapInfo",
                    new Object[] {null}, new String[] {String[].class.getName()});
            Optional<long[]> range = heapRange(info);
            if (range.isEmpty()) {
                LOG.info("heap residency not counted: no heap bounds in {}", info.lines().findFirst().orElse("gcHeapInfo"));
                return Optional.empty();
            }
            HeapResidency heap = new HeapResidency(Native.load("c", CLibrary.class), range.get()[0], range.get()[1]);
            heap.residentBytes(); // fails here, not in the middle of a burst
            return Optional.of(heap);
        } catch (Exception | LinkageError e) {
            LOG.info("heap residency not counted: {}", e.toString());
            return Optional.empty();
        }
    }

    /**
     * The lowest start and highest end of the heap ranges gcHeapInfo prints (G1: one range;
     * Serial and Parallel: one per generation, contiguous), page aligned and at most 64 GiB.
     */
    static Optional<long[]> heapRange(String gcHeapInfo) {
        Matcher m = RANGE.matcher(gcHeapInfo);
        long lo = Long.MAX_VALUE;
        long hi = 0;
        while (m.find()) {
            lo = Math.min(lo, Long.parseUnsignedLong(m.group(1).substring(2), 16));
            hi = Math.max(hi, Long.parseUnsignedLong(m.group(2).substring(2), 16));
        }
        // The page-per-byte buffer is an int-indexed array: 64 GiB of heap is 16 M pages.
        boolean sane = hi > lo && lo % PAGE == 0 && hi % PAGE == 0 && hi - lo <= 64L << 30;
        return sane ? Optional.of(new long[] {lo, hi}) : Optional.empty();
    }

    /** The heap's whole reservation: what it can hold at most, whatever it holds now. */
    public long reservedBytes() {
        return end - start;
    }

    /** Bytes of the heap's reservation resident now. */
    public synchronized long residentBytes() {
        int rc = c.mincore(new Pointer(start), end - start, pages);
        if (rc != 0) {
            throw new IllegalStateException("mincore on the heap failed: errno " + Native.getLastError());
        }
        long resident = 0;
        for (byte b : pages) {
            resident += b & 1;
        }
        return resident * PAGE;
    }
}
