package io.ragsearch.calibrate;

import java.util.List;

/**
 * Whether the server measures the rerank cost at startup, at which burst sizes, and whether the
 * memory is read as process RSS rather than from the cgroup (RAGSEARCH_MEMORY_PROBE=rss).
 */
public record CalibrationSettings(boolean enabled, List<Integer> levels, boolean rssProbe) {

    public static final CalibrationSettings DEFAULTS = new CalibrationSettings(true, Calibrator.DEFAULT_LEVELS, false);

    public CalibrationSettings {
        levels = List.copyOf(levels);
    }
}
