package io.ragsearch.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ragsearch.contract.budget.RerankBudget;
import io.ragsearch.contract.calibration.Calibration;
import org.junit.jupiter.api.Test;

/** The bench labels its "auto" row with the contract's formula: what the operator would set. */
class SafeConcurrencyTest {

    private static Calibration measured(long resident, long perRun) {
        return Calibration.measured("rss", null, resident, perRun, 3, 32, 256, 1, "builtin:minilm-pair@x", "2026-12-03T00:00:00Z");
    }

    @Test
    void theAutoRowIsTheContractsSafeConcurrencyWithTheCoresAsCpuLimit() {
        long mib = 1L << 20;
        // 1500 MiB × 0.9 = 1350; minus 600 resident = 750; 750 / 200 = 3 runs; 8 cores do not bind.
        assertEquals(3, BenchCommand.safeConcurrency(measured(600 * mib, 200 * mib), 1500 * mib, 8));
        // Memory allows 3, two cores allow 2.
        assertEquals(2, BenchCommand.safeConcurrency(measured(600 * mib, 200 * mib), 1500 * mib, 2));
        Calibration c = measured(600 * mib, 100 * mib);
        assertEquals(RerankBudget.safe(new RerankBudget.Limits(1500 * mib, 4000L, RerankBudget.DEFAULT_HEADROOM_PERCENT),
                new RerankBudget.Measurement(c.residentBytes(), c.perRunBytes(), 1)).safe(), BenchCommand.safeConcurrency(c, 1500 * mib, 4));
        assertThrows(IllegalStateException.class, () -> BenchCommand.safeConcurrency(measured(600 * mib, 0), 1500 * mib, 4));
    }
}
