package io.ragsearch.calibrate;

import java.util.List;

/**
 * Whether the server measures the rerank cost at startup, at which burst sizes, and whether the
 * memory is read as process RSS rather than from the cgroup (RAGSEARCH_MEMORY_PROBE=rss), and
 * where the live memory and CPU limits are read ({@code limitFile}, RAGSEARCH_MEMORY_LIMIT_FILE;
 * {@code cpuLimitFile}, RAGSEARCH_CPU_LIMIT_FILE; null: the process's own cgroup).
 */
public record CalibrationSettings(boolean enabled, List<Integer> levels, boolean rssProbe, java.nio.file.Path limitFile,
                                  java.nio.file.Path cpuLimitFile) {

    public static final CalibrationSettings DEFAULTS = new CalibrationSettings(true, Calibrator.DEFAULT_LEVELS, false, null, null);

    public CalibrationSettings {
        levels = List.copyOf(levels);
    }
}
