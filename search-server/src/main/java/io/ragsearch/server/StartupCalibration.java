package io.ragsearch.server;

import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.calibrate.CalibrationSettings;
import io.ragsearch.calibrate.Calibrator;
import io.ragsearch.calibrate.MemoryProbe;
import io.ragsearch.metrics.Metrics;
import io.ragsearch.rerank.Reranker;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Measures the rerank cost before the server calls itself ready (the operator reads it from ready pods), and exports it as gauges. */
final class StartupCalibration {

    private static final Logger LOG = LoggerFactory.getLogger(StartupCalibration.class);

    private StartupCalibration() {
    }

    static Optional<Calibration> run(CalibrationSettings settings, List<Reranker> rerankers, int candidates, Metrics metrics) {
        if (!settings.enabled()) {
            LOG.info("calibration disabled by configuration");
            return Optional.empty();
        }
        long t0 = System.nanoTime();
        Calibration calibration = new Calibrator(MemoryProbe.detect(settings.rssProbe()), settings.levels()).calibrate(rerankers, candidates);
        LOG.info("calibration ({}, {} ms): resident {} MiB, {} MiB per rerank run, reranker {}", calibration.method(),
                (System.nanoTime() - t0) / 1_000_000, calibration.residentBytes() >> 20, calibration.perRunBytes() >> 20,
                calibration.reranker());
        metrics.gauge("ragsearch_calibration_resident_bytes", "Resident memory measured by calibration", calibration::residentBytes);
        metrics.gauge("ragsearch_calibration_per_run_bytes", "Memory one concurrent rerank run costs", calibration::perRunBytes);
        metrics.gauge("ragsearch_calibration_memory_limit_bytes", "Memory limit seen by calibration (0: none)",
                () -> calibration.memoryLimitBytes() == null ? 0 : calibration.memoryLimitBytes());
        return Optional.of(calibration);
    }
}
