package io.ragsearch.rerank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.contract.calibration.LiveRerank;
import io.ragsearch.contract.settings.ServerSettings;
import org.junit.jupiter.api.Test;

/** Which limit the permits follow and the concurrency for it: the contract's formula on the pod's own measurement. */
class LiveBoundTest {

    private static final long MIB = 1L << 20;
    /** The serving pod at the field's numbers (docs/memory.md): resident 652 MiB, 325 MiB a run. */
    private static final Calibration FIELD = Calibration.measured("cgroup-v2", 1500 * MIB, 652 * MIB, 325 * MIB, 3, 32, 256, 1,
            "sha256:x", "2026-12-06T12:00:00Z");
    private static final ServerSettings.Retune AUTO = new ServerSettings.Retune(null, false, 10, null);

    @Test
    void theFieldsLimitsGiveTwoThenOneThenThree() {
        assertEquals(2, LiveBound.concurrency(FIELD, 1500 * MIB, AUTO).concurrency());
        assertEquals(1, LiveBound.concurrency(FIELD, 1200 * MIB, AUTO).concurrency());
        assertEquals(3, LiveBound.concurrency(FIELD, 2000 * MIB, AUTO).concurrency());
    }

    @Test
    void theOperatorsRequestAndCpuBoundStillApply() {
        assertEquals(2, LiveBound.concurrency(FIELD, 2000 * MIB, new ServerSettings.Retune(null, false, 10, 2000)).concurrency(),
                "two cores: two runs, whatever the memory");
        var clamped = LiveBound.concurrency(FIELD, 1200 * MIB, new ServerSettings.Retune(2, false, 10, null));
        assertEquals(1, clamped.concurrency());
        assertTrue(clamped.clamped(), "a fixed 2 above the safe 1 is cut to it");
        assertEquals(4, LiveBound.concurrency(FIELD, 1200 * MIB, new ServerSettings.Retune(4, true, 10, null)).concurrency(),
                "forced stays forced");
        assertEquals(1, LiveBound.concurrency(FIELD, 1500 * MIB, new ServerSettings.Retune(null, false, 40, null)).concurrency(),
                "a larger headroom leaves room for one");
    }

    @Test
    void theCpuLimitFollowsTheCgroupOnceItMovedAndTheOperatorsBefore() {
        assertEquals(2000L, LiveBound.cpuMillis(2000L, 2000L, 2000), "no change since the start");
        assertEquals(1000L, LiveBound.cpuMillis(1000L, 2000L, 2000), "resized in place");
        assertEquals(2000L, LiveBound.cpuMillis(null, null, 2000), "no cgroup limit to read: the operator's holds");
        assertEquals(null, LiveBound.cpuMillis(null, 2000L, 2000), "lifted: none");
        assertEquals(1500L, LiveBound.cpuMillis(1500L, null, null), "a limit that appeared");
    }

    @Test
    void aCpuDecreaseTakesOneRunACoreAndMemoryAndCpuTakeTheLower() {
        assertEquals(2, LiveBound.concurrency(FIELD, 2000 * MIB, 2000L, AUTO).concurrency());
        assertEquals(1, LiveBound.concurrency(FIELD, 2000 * MIB, 1000L, AUTO).concurrency(), "2000m → 1000m, intraOpThreads 1");
        assertEquals(3, LiveBound.concurrency(FIELD, 2000 * MIB, 4000L, AUTO).concurrency(), "memory bounds it at three");
        assertEquals(1, LiveBound.concurrency(FIELD, 1200 * MIB, 4000L, AUTO).concurrency(), "memory bounds it at one");
        Calibration twoThreads = Calibration.measured("cgroup-v2", 1500 * MIB, 652 * MIB, 325 * MIB, 3, 32, 256, 2,
                "sha256:x", "2026-12-06T12:00:00Z");
        assertEquals(1, LiveBound.concurrency(twoThreads, 2000 * MIB, 3000L, AUTO).concurrency(), "3000m of two-thread runs: one");
    }

    @Test
    void anAnnouncedDecreaseLeadsAndAnAnnouncedIncreaseDoesNot() {
        assertEquals(new LiveBound.Target(1200 * MIB, LiveRerank.SOURCE_ANNOUNCED), LiveBound.target(1500 * MIB, 1200 * MIB, false));
        assertEquals(new LiveBound.Target(1500 * MIB, LiveRerank.SOURCE_START), LiveBound.target(1500 * MIB, 2000 * MIB, false),
                "never above what the process's own limit allows");
        assertEquals(new LiveBound.Target(2000 * MIB, LiveRerank.SOURCE_CGROUP), LiveBound.target(2000 * MIB, null, true));
        assertEquals(new LiveBound.Target(1200 * MIB, LiveRerank.SOURCE_ANNOUNCED), LiveBound.target(null, 1200 * MIB, false));
    }
}
