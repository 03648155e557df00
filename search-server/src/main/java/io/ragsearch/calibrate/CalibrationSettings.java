package io.ragsearch.calibrate;

import java.util.List;

/** Whether the server measures the rerank cost at startup, and at which burst sizes. */
public record CalibrationSettings(boolean enabled, List<Integer> levels) {

    public static final CalibrationSettings DEFAULTS = new CalibrationSettings(true, Calibrator.DEFAULT_LEVELS);

    public CalibrationSettings {
        levels = List.copyOf(levels);
    }
}
