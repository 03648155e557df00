package io.ragsearch.contract.budget;

import io.ragsearch.contract.budget.RerankBudget.Effective;
import io.ragsearch.contract.budget.RerankBudget.Limits;
import io.ragsearch.contract.budget.RerankBudget.Measurement;
import io.ragsearch.contract.budget.RerankBudget.Request;
import io.ragsearch.contract.budget.RerankBudget.Safe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RerankBudgetTest {
    private static final long MIB = 1024L * 1024;
    private static final long GIB = 1024L * MIB;

    @Test
    void fieldNumbersGiveOneAsFoundByHand() {
        // 1500 MiB limit, resident ≈ 0.78 GiB, per run ≈ 0.33 GiB, 10 % headroom.
        Safe s = RerankBudget.safe(new Limits(1500 * MIB, 2000L, 10),
                new Measurement((long) (0.78 * GIB), (long) (0.33 * GIB), 1));
        assertEquals(1, s.byMemory());
        assertEquals(2, s.byCpu());
        assertEquals(1, s.safe());
        assertFalse(s.memoryInsufficient());
        assertEquals(1500 * MIB * 90 / 100 - (long) (0.78 * GIB), s.budgetBytes());
    }

    @Test
    void limitTooSmallForOneRunStillGivesOneAndSaysSo() {
        Safe s = RerankBudget.safe(new Limits(900 * MIB, null, 10), new Measurement(700 * MIB, 300 * MIB, 1));
        assertEquals(110 * MIB, s.budgetBytes());
        assertEquals(0, s.byMemory());
        assertEquals(1, s.safe());
        assertTrue(s.memoryInsufficient());
    }

    @Test
    void residentAboveTheUsableLimitGivesNegativeBudgetAndOne() {
        Safe s = RerankBudget.safe(new Limits(512 * MIB, null, 10), new Measurement(600 * MIB, 100 * MIB, 1));
        assertTrue(s.budgetBytes() < 0);
        assertTrue(s.byMemory() < 0, "floor of a negative budget stays negative: " + s.byMemory());
        assertEquals(1, s.safe());
        assertTrue(s.memoryInsufficient());
    }

    @Test
    void cpuLimitCapsWhatMemoryWouldAllow() {
        Safe s = RerankBudget.safe(new Limits(8 * GIB, 2000L, 10), new Measurement(400 * MIB, 300 * MIB, 1));
        assertEquals(23, s.byMemory());
        assertEquals(2, s.byCpu());
        assertEquals(2, s.safe());
    }

    @Test
    void noCpuLimitCapsAtAFixedNumberOfRuns() {
        Safe s = RerankBudget.safe(new Limits(8 * GIB, null, 10), new Measurement(400 * MIB, 300 * MIB, 1));
        assertNull(s.byCpu());
        assertEquals(23, s.byMemory());
        assertEquals(RerankBudget.MAX_WITHOUT_CPU_LIMIT, s.safe(), "CPU-bound work gains nothing past the cores");
        Safe small = RerankBudget.safe(new Limits(2 * GIB, null, 10), new Measurement(400 * MIB, 300 * MIB, 1));
        assertEquals(4, small.safe(), "below the cap memory decides");
    }

    @ParameterizedTest(name = "cpu {0}m, {1} intra-op threads → byCpu {2}")
    @CsvSource({"500, 1, 1", "1000, 1, 1", "1500, 1, 1", "2000, 1, 2", "4000, 2, 2", "3000, 2, 1", "1000, 4, 1", "8000, 1, 8"})
    void cpuCapIsWholeRunsPerCpuLimitAndNeverBelowOne(long cpuMillis, int intraOp, int expected) {
        Safe s = RerankBudget.safe(new Limits(64 * GIB, cpuMillis, 10), new Measurement(100 * MIB, 100 * MIB, intraOp));
        assertEquals(expected, s.byCpu());
        assertEquals(expected, s.safe());
    }

    @ParameterizedTest(name = "headroom {0} % → byMemory {1}")
    @CsvSource({"0, 6", "10, 5", "25, 4", "50, 2", "90, 0"})
    void headroomIsTakenFromTheLimit(int headroom, long expected) {
        // limit 2000 MiB, resident 200 MiB, per run 300 MiB
        Safe s = RerankBudget.safe(new Limits(2000 * MIB, null, headroom), new Measurement(200 * MIB, 300 * MIB, 1));
        assertEquals(expected, s.byMemory());
    }

    @Test
    void exactFitCountsAsOneRun() {
        Safe s = RerankBudget.safe(new Limits(1000 * MIB, null, 0), new Measurement(700 * MIB, 300 * MIB, 1));
        assertEquals(1, s.byMemory());
        assertFalse(s.memoryInsufficient());
        Safe oneByteShort = RerankBudget.safe(new Limits(1000 * MIB, null, 0), new Measurement(700 * MIB + 1, 300 * MIB, 1));
        assertEquals(0, oneByteShort.byMemory());
    }

    @Test
    void hugeLimitsDoNotOverflow() {
        Safe s = RerankBudget.safe(new Limits(1L << 50, 1L << 50, 10), new Measurement(0, 1, 1));
        assertEquals(Integer.MAX_VALUE, s.safe());
        assertEquals(RerankBudget.MAX_WITHOUT_CPU_LIMIT,
                RerankBudget.safe(new Limits(1L << 50, null, 10), new Measurement(0, 1, 1)).safe());
    }

    @Test
    void autoTakesTheSafeValue() {
        Safe s = RerankBudget.safe(new Limits(2000 * MIB, 4000L, 10), new Measurement(400 * MIB, 300 * MIB, 1));
        assertEquals(new Effective(4, false), RerankBudget.effective(Request.auto(), s));
    }

    @Test
    void fixedAboveSafeIsClampedBelowIsKept() {
        Safe s = RerankBudget.safe(new Limits(1500 * MIB, null, 10), new Measurement(500 * MIB, 400 * MIB, 1));
        assertEquals(2, s.safe());
        assertEquals(new Effective(2, true), RerankBudget.effective(new Request(6, false), s));
        assertEquals(new Effective(2, false), RerankBudget.effective(new Request(2, false), s));
        assertEquals(new Effective(1, false), RerankBudget.effective(new Request(1, false), s));
    }

    @Test
    void forceAppliesTheFixedValueEvenAboveSafe() {
        Safe s = RerankBudget.safe(new Limits(1500 * MIB, null, 10), new Measurement(500 * MIB, 400 * MIB, 1));
        assertEquals(new Effective(6, false), RerankBudget.effective(new Request(6, true), s));
        assertEquals(new Effective(6, false), RerankBudget.effective(new Request(6, true), null));
    }

    @Test
    void withoutMeasurementTheConcurrencyIsOne() {
        assertEquals(new Effective(1, false), RerankBudget.effective(Request.auto(), null));
        assertEquals(new Effective(1, false), RerankBudget.effective(new Request(4, false), null));
    }

    @Test
    void brokenInputsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Measurement(100, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new Measurement(-1, 10, 1));
        assertThrows(IllegalArgumentException.class, () -> new Measurement(100, 10, 0));
        assertThrows(IllegalArgumentException.class, () -> new Limits(0, null, 10));
        assertThrows(IllegalArgumentException.class, () -> new Limits(100, 0L, 10));
        assertThrows(IllegalArgumentException.class, () -> new Limits(100, null, 100));
        assertThrows(IllegalArgumentException.class, () -> new Limits(100, null, -1));
        assertThrows(IllegalArgumentException.class, () -> new Request(0, false));
    }
}
