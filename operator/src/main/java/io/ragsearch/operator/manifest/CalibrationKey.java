package io.ragsearch.operator.manifest;

import io.ragsearch.operator.naming.ConfigHash;
import io.ragsearch.operator.spec.CheckedSpec;

/** What a calibration depends on: pods with the current key measured under the current limits. */
public final class CalibrationKey {

    private CalibrationKey() {
    }

    /** What a calibration depends on: the same key means the same measurement conditions. */
    public static String of(CheckedSpec spec) {
        return ConfigHash.of(String.join("\n", spec.image(), Long.toString(spec.memoryBytes()), Long.toString(spec.heapBytes()),
                String.valueOf(spec.cpuMillis()),
                String.valueOf(spec.rerankerSource()), Integer.toString(spec.intraOpThreads())));
    }
}
