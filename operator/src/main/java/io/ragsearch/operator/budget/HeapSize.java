package io.ragsearch.operator.budget;

/**
 * The JVM heap the operator gives a pod (-Xms = -Xmx, pre-touched). The JVM's own default, a quarter of the limit,
 * is counted by the calibration as resident (heap the JVM may still commit), and at 1500 MiB
 * that leaves room for one rerank run where two fit. The heap holds the corpus, the Lucene
 * index and request buffers; rerank runs and the models live in native memory. So: a sixth of
 * the limit, at least 192 MiB (the sample corpora and the 20 Korean statutes need under 100),
 * at most 4 GiB; {@code spec.resources.heap} overrides it for large database corpora.
 */
public final class HeapSize {
    public static final long MIN_DEFAULT = 192L * Mebibytes.MIB;
    public static final long MAX_DEFAULT = 4096L * Mebibytes.MIB;

    private HeapSize() {
    }

    /** The default for a memory limit, whole MiB. */
    public static long forLimit(long memoryLimitBytes) {
        long sixth = memoryLimitBytes / 6;
        return Math.floorDiv(Math.min(MAX_DEFAULT, Math.max(MIN_DEFAULT, sixth)), Mebibytes.MIB) * Mebibytes.MIB;
    }

    /**
     * The JVM flags: a fixed heap (whole MiB, rounded down), touched at startup. The calibration
     * charges the heap at its whole reservation; a heap that is resident from the start makes the
     * pod's real peak what the budget charges, instead of a peak that creeps up as garbage cycles
     * through untouched pages (docs/memory.md, "Heap and the rest, measured apart").
     */
    public static String flags(long heapBytes) {
        long mib = Math.floorDiv(heapBytes, Mebibytes.MIB);
        return "-Xms" + mib + "m -Xmx" + mib + "m -XX:+AlwaysPreTouch";
    }
}
