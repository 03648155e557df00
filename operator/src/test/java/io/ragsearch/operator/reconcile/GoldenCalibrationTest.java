package io.ragsearch.operator.reconcile;

import io.ragsearch.contract.Golden;
import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.operator.naming.PodLayout;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The contract's golden /calibration answer, read over HTTP by the operator's real client. */
class GoldenCalibrationTest {

    @Test
    void theGoldenAnswerReadsAsTheMeasurementItStates() throws IOException {
        try (FakePodAdminEndpoints pods = new FakePodAdminEndpoints()) {
            pods.answer("10.0.0.1", Golden.text("calibration.json"));

            Calibration c = pods.calibration("10.0.0.1", PodLayout.ADMIN_PORT).orElseThrow();
            MeasuredCost cost = MeasuredCost.of("pod-a", c);

            assertEquals(662_700_032L, cost.residentBytes());
            assertEquals(333_447_168L, cost.perRunBytes());
            assertEquals(1_572_864_000L, cost.measuredUnderLimitBytes());
            assertEquals("builtin:minilm-pair@5f1c0e4b", cost.rerankerDigest());
            assertTrue(c.hasReranker());
        }
    }

    @Test
    void anAnswerMissingAContractFieldIsAnErrorNotAFreeRun() {
        try (FakePodAdminEndpoints pods = new FakePodAdminEndpoints()) {
            pods.answer("10.0.0.2", Golden.text("calibration.json").replaceFirst("\"perRunBytes\": 333447168,", ""));

            IOException e = assertThrows(IOException.class, () -> pods.calibration("10.0.0.2", PodLayout.ADMIN_PORT));
            assertTrue(e.getMessage().contains("calibration field perRunBytes is missing"), e.getMessage());
        }
    }
}
