package io.ragsearch.operator.calibration;

import io.ragsearch.contract.calibration.Calibration;

import java.io.IOException;
import java.util.Optional;

/** Reads a pod's admin endpoints: its measurement and its database state. An interface so tests can point it at any address. */
public interface CalibrationClient {

    /**
     * @return the measurement, or empty while the pod has not measured yet (503)
     * @throws IOException when the pod cannot be reached or answers something unreadable
     */
    Optional<Calibration> fetch(String podIp, int adminPort) throws IOException;

    /**
     * @return the pod's database state from /info, or empty when the pod serves no database
     * @throws IOException when the pod cannot be reached or answers something unreadable
     */
    Optional<DatabaseState> database(String podIp, int adminPort) throws IOException;
}
