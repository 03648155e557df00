package io.ragsearch.embed;

import java.util.Locale;

/**
 * ONNX Runtime settings that decide cost. The arena mode decides what happens to a run's
 * working memory (measurements in docs/memory.md):
 * <ul>
 *   <li>{@code SHRINK} (default): CPU arena on, and every run ends by returning the arena's free
 *       chunks (run option memory.enable_memory_arena_shrinkage). Fast from the first run of each
 *       input shape; memory falls back after bursts; the peak stays at resident + runs × cost.</li>
 *   <li>{@code KEEP}: ONNX Runtime's default; the arena keeps the high-water mark for good.</li>
 *   <li>{@code OFF}: no arena; memory returns, but the first run of every new input shape runs
 *       without a memory plan and took 12–17 s instead of 2.5 s here.</li>
 * </ul>
 */
public record SessionSettings(int intraOpThreads, Arena arena) {

    public static final Arena DEFAULT_ARENA = Arena.SHRINK;

    public enum Arena {
        SHRINK, KEEP, OFF;

        public static Arena parse(String value) {
            try {
                return valueOf(value.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown arena mode '" + value + "' (use shrink, keep or off)");
            }
        }

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public SessionSettings {
        if (intraOpThreads < 1) {
            throw new IllegalArgumentException("intraOpThreads must be at least 1, got " + intraOpThreads);
        }
    }
}
