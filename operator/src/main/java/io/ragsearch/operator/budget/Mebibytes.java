package io.ragsearch.operator.budget;

/** Byte counts as people read them in conditions, events, render headers and the playground: rounded MiB. */
public final class Mebibytes {
    public static final long MIB = 1024L * 1024;

    private Mebibytes() {
    }

    /** "721 MiB"; "?" when unknown. */
    public static String text(Long bytes) {
        return bytes == null ? "?" : of(bytes) + " MiB";
    }

    /** Rounded to the nearest MiB. */
    public static long of(long bytes) {
        return Math.floorDiv(bytes + MIB / 2, MIB);
    }

    /** Rounded up: for "at least" advice. */
    public static long ceil(long bytes) {
        return Math.floorDiv(bytes + MIB - 1, MIB);
    }
}
