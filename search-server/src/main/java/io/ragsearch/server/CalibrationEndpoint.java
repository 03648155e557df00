package io.ragsearch.server;

import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.contract.calibration.CalibrationJson;
import io.ragsearch.contract.calibration.LiveRerank;
import java.util.Optional;

/** What /calibration serves: the contract's JSON of the measurement, written by the contract's one writer. */
public final class CalibrationEndpoint {

    private CalibrationEndpoint() {
    }

    /** Empty until measured (the admin listener answers 503 then); with the bound in force now when it re-tunes live. */
    public static Optional<String> render(Calibration measured, LiveRerank live) {
        return Optional.ofNullable(measured).map(c -> CalibrationJson.write(c, live));
    }
}
