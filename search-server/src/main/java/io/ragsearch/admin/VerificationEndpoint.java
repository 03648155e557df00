package io.ragsearch.admin;

/**
 * What the admin listener's {@code /verification} path asks of the server: start a run (POST)
 * and answer the last one (GET), each as a status and a JSON body. The listener only routes.
 */
public interface VerificationEndpoint {

    record Answer(int status, String json) {
    }

    /** @param baselineMcpUrl the running version's MCP endpoint, or null to run without a baseline */
    Answer start(String baselineMcpUrl, String baselineAdminUrl);

    Answer result();
}
