package io.ragsearch.server;

import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.contract.calibration.CalibrationJson;
import java.util.Optional;

/** What /calibration serves: the contract's JSON of the measurement, written by the contract's one writer. */
public final class CalibrationEndpoint {

    private CalibrationEndpoint() {
    }

    /** Empty until measured (the admin listener answers 503 then). */
    public static Optional<String> render(Calibration measured) {
        return Optional.ofNullable(measured).map(CalibrationJson::write);
    }
}
