package io.ragsearch.server;

import io.ragsearch.admin.VerificationEndpoint;
import io.ragsearch.contract.Environment;
import io.ragsearch.contract.json.JsonWriter;
import io.ragsearch.contract.verification.VerificationJson;
import io.ragsearch.verification.VerificationRuns;
import io.ragsearch.verification.VerifyException;
import java.util.Map;

/** The admin listener's /verification answers, from the server's verification runs. */
final class VerificationAdmin implements VerificationEndpoint {

    private final VerificationRuns runs;

    VerificationAdmin(VerificationRuns runs) {
        this.runs = runs;
    }

    @Override
    public Answer start(String baselineMcpUrl, String baselineAdminUrl) {
        VerificationRuns.Start started;
        try {
            started = runs.start(baselineMcpUrl, baselineAdminUrl);
        } catch (VerifyException e) {
            return problem(400, e.getMessage());
        } catch (VerificationRuns.BaselineRefused e) {
            return problem(403, e.getMessage());
        }
        return switch (started) {
            case STARTED -> new Answer(202, VerificationJson.write(runs.last().orElseThrow()));
            case NOT_CONFIGURED -> notConfigured();
            case IN_PROGRESS -> problem(409, "a verification is in progress; GET its result");
            case NOT_SERVING -> problem(503, "the MCP listener is not serving yet");
        };
    }

    @Override
    public Answer result() {
        if (!runs.configured()) {
            return notConfigured();
        }
        return runs.last().map(v -> new Answer(200, VerificationJson.write(v)))
                .orElseGet(() -> problem(404, "no verification has run; POST one"));
    }

    private static Answer notConfigured() {
        return problem(404, "no checks file: set " + Environment.VERIFY_CHECKS + " to verify this server");
    }

    private static Answer problem(int status, String why) {
        return new Answer(status, JsonWriter.write(Map.of("error", why)));
    }
}
