package io.ragsearch.operator.budget;

/**
 * The JVM heap the operator gives a pod (-Xmx). The JVM's own default, a quarter of the limit,
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
     * The JVM flag: whole MiB, rounded down. Not pre-touched: a heap resident from the start
     * would make the calibration's prediction exact (docs/memory.md), but at a small limit it
     * turns a pod that runs (its heap touched only as far as it is used) into an OOM loop.
     */
    public static String flags(long heapBytes) {
        return "-Xmx" + Math.floorDiv(heapBytes, Mebibytes.MIB) + "m";
    }
}
