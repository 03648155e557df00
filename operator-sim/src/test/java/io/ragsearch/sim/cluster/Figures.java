package io.ragsearch.sim.cluster;

import java.util.Locale;

/**
 * The figures an end-to-end class measures, printed as they come ({@code PREFIX: line}, for the
 * CI log) and again together at the end ({@link #printSummary()}), where a reader of a long log
 * finds them.
 */
public final class Figures {
    private final String prefix;
    private final StringBuilder summary = new StringBuilder();

    public Figures(String prefix) {
        this.prefix = prefix;
    }

    /** Seconds since {@code startNanos} ({@link System#nanoTime()}). */
    public static double since(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    public synchronized void note(String format, Object... args) {
        String line = String.format(Locale.ROOT, format, args);
        System.out.println(prefix + ": " + line);
        summary.append("  ").append(line).append('\n');
    }

    public synchronized void printSummary() {
        System.out.println(prefix + " SUMMARY\n" + summary);
    }
}
