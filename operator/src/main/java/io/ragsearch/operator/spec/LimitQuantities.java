package io.ragsearch.operator.spec;

/**
 * One spelling for each memory or CPU amount in what the operator writes to pods. The spec may
 * say the same amount several ways ("2" or "2000m" cores, "2Gi" or "2048Mi"); written as given,
 * an edit from one to the other would change the pod template's hash and roll every pod for
 * nothing (or, after an in-place resize, make the way back look like another change). The
 * spelling keeps the common forms as users write them: whole cores without a suffix, the
 * largest unit that divides the amount (binary before decimal at each size).
 */
public final class LimitQuantities {

    private static final long KI = 1024;
    private static final long MI = KI * 1024;
    private static final long GI = MI * 1024;
    private static final long TI = GI * 1024;
    // Largest first; at each size the binary unit before the decimal one ("2G" stays "2G", not "1953125Ki").
    private static final long[] UNITS = {TI, 1_000_000_000_000L, GI, 1_000_000_000L, MI, 1_000_000L, KI, 1_000L};
    private static final String[] SUFFIXES = {"Ti", "T", "Gi", "G", "Mi", "M", "Ki", "k"};

    private LimitQuantities() {
    }

    public static String memory(long bytes) {
        if (bytes <= 0) {
            return Long.toString(bytes);
        }
        for (int i = 0; i < UNITS.length; i++) {
            if (bytes % UNITS[i] == 0) {
                return (bytes / UNITS[i]) + SUFFIXES[i];
            }
        }
        return Long.toString(bytes);
    }

    public static String cpu(long millis) {
        return millis % 1000 == 0 ? Long.toString(millis / 1000) : millis + "m";
    }
}
