package io.ragsearch.operator.podadmin;

import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.contract.calibration.LiveRerank;
import io.ragsearch.contract.verification.Verification;

import java.io.IOException;
import java.util.Optional;

/**
 * The operator's client of a pod's admin port: its measurement (/calibration), its database state
 * and article embedding progress (/info), and a candidate's verification run (/verification, started and read). An interface so
 * tests can point it at any address.
 */
public interface PodAdminClient {

    /**
     * @return the measurement, or empty while the pod has not measured yet (503)
     * @throws IOException when the pod cannot be reached or answers something unreadable
     */
    Optional<Calibration> calibration(String podIp, int adminPort) throws IOException;

    /**
     * @return the pod's database state from /info, or empty when the pod serves no database
     * @throws IOException when the pod cannot be reached or answers something unreadable
     */
    Optional<DatabaseState> database(String podIp, int adminPort) throws IOException;

    /**
     * @return the pod's article embedding progress from /info, or empty when its start had nothing to embed
     * @throws IOException when the pod cannot be reached or answers something unreadable
     */
    Optional<EmbeddingState> embedding(String podIp, int adminPort) throws IOException;

    /**
     * Asks a candidate pod to run its checks against itself with the MCP endpoint
     * {@code baselineMcpUrl} as baseline (the serving Service: the only one the candidate allows); null runs without one.
     *
     * @return true once a run is going (started now, or already in progress)
     * @throws IOException when the pod cannot be reached or refuses (no checks file, a bad baseline)
     */
    boolean startVerification(String podIp, int adminPort, String baselineMcpUrl) throws IOException;

    /**
     * @return the pod's last verification run, or empty when none has run there
     * @throws IOException when the pod cannot be reached or answers something unreadable
     */
    Optional<Verification> verification(String podIp, int adminPort) throws IOException;

    /**
     * @return the rerank bound the pod runs with now (/calibration's live block), or empty before it
     *     measured or from a server that does not re-tune live
     * @throws IOException when the pod cannot be reached or answers something unreadable
     */
    default Optional<LiveRerank> live(String podIp, int adminPort) throws IOException {
        return Optional.empty();
    }

    /**
     * Tells the pod the memory limit about to apply (a decrease): its permits move before it answers.
     *
     * @return the bound in force after it
     * @throws IOException when the pod cannot be reached or refuses (not measured yet)
     */
    default LiveRerank announceMemoryLimit(String podIp, int adminPort, long bytes) throws IOException {
        throw new IOException("this client cannot announce a memory limit");
    }
}
