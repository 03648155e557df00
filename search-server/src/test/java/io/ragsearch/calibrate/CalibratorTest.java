package io.ragsearch.calibrate;

import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.rerank.RerankerModel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.embed.SessionSettings;
import io.ragsearch.rerank.Reranker;
import io.ragsearch.rerank.RerankerFactory;
import io.ragsearch.search.TestProjects;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Real worst-case runs of the stand-in at a small size, measured in this JVM. */
class CalibratorTest {

    @Test
    void measuresAPositiveCostPerRunWithEveryContractField() throws Exception {
        Reranker standIn = new RerankerFactory(TestProjects.REGISTRY, new SessionSettings(1, SessionSettings.Arena.SHRINK))
                .create(RerankerModel.builtin(RerankerFactory.STAND_IN, 96));
        Calibration c = new Calibrator(MemoryProbe.detect(false), List.of(1, 2)).calibrate(List.of(standIn), 16);
        assertTrue(List.of("cgroup-v2", "cgroup-v1", "rss").contains(c.method()));
        assertTrue(c.residentBytes() > 50L << 20, "a JVM with a model loaded: " + c.residentBytes());
        assertTrue(c.perRunBytes() > 1L << 20 && c.perRunBytes() < 2L << 30, "plausible per-run cost: " + c.perRunBytes());
        assertEquals(2, c.samples());
        assertEquals(16, c.batch());
        assertEquals(96, c.maxSeqLen());
        assertEquals(1, c.intraOpThreads());
        assertEquals(standIn.digest(), c.rerankerDigest());
        assertFalse(c.trained());
        assertEquals(List.of(1, 2), c.levels().stream().map(Calibration.Level::concurrency).toList());
        assertEquals("shrink", c.memorySettings().get("onnxArena"));
        assertEquals(c.residentBytes() + 3 * c.perRunBytes(), c.predictedPeak(3));
        HeapResidency heap = HeapResidency.locate().orElseThrow();
        assertTrue(c.residentBytes() > heap.reservedBytes(), "the heap is charged at its whole reservation, plus what is outside it");
        assertTrue(c.methodReason().contains("heap charged at its reservation"), c.methodReason());
    }

    @Test
    void withoutTheHeapSplitTheReadingsIncludeTheHeapAndTheHeapStillToCommitIsAdded() throws Exception {
        Reranker standIn = new RerankerFactory(TestProjects.REGISTRY, new SessionSettings(1, SessionSettings.Arena.SHRINK))
                .create(RerankerModel.builtin(RerankerFactory.STAND_IN, 32));
        Calibration c = new Calibrator(MemoryProbe.detect(false), List.of(1), Optional.empty()).calibrate(List.of(standIn), 8);
        assertTrue(c.methodReason().contains("heap not separable"), c.methodReason());
        long whole = MemoryProbe.detect(false).current();
        assertTrue(c.residentBytes() > whole / 2, "a reading of the whole process (" + (whole >> 20) + " MiB now): " + c.residentBytes());
        assertEquals(1, c.samples());
        assertTrue(c.levels().get(0).peakBytes() >= c.perRunBytes(), "the whole peak is at least one run's cost");
    }

    @Test
    void withoutARerankerTheCostIsZeroAndSaysWhy() {
        Calibration c = new Calibrator(MemoryProbe.detect(false), Calibrator.DEFAULT_LEVELS).calibrate(List.of(), 32);
        assertEquals(0, c.perRunBytes());
        assertNull(c.rerankerDigest());
        assertTrue(c.methodReason().contains("no reranker configured"), c.methodReason());
        assertTrue(c.residentBytes() > 0);
    }

    @Test
    void aBurstThatWouldPassNinetyPercentOfTheLimitIsSkipped() {
        long gib = 1L << 30;
        assertTrue(Calibrator.fits(gib / 2, 2, gib / 8, gib));
        assertFalse(Calibrator.fits(gib / 2, 4, gib / 8, gib), "0.5 + 4 × 0.125 GiB = 100 % of the limit");
        assertTrue(Calibrator.fits(gib, 8, 0, 0), "no limit, or no cost yet: always measure");
    }
}
