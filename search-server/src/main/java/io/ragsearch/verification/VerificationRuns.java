package io.ragsearch.verification;

import io.ragsearch.contract.verification.Verification;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's side of promotion: one run at a time of its checks file against its own MCP
 * listener, with the running version named by the caller as baseline, in the background; the
 * last run's result stays until the next one starts. The checks file is read at each start, so a
 * changed ConfigMap applies to the next run and a bad file is a failed run that says why.
 */
public final class VerificationRuns {

    private static final Logger LOG = LoggerFactory.getLogger(VerificationRuns.class);

    /** Why a run did not start, or that it did. */
    public enum Start { STARTED, NOT_CONFIGURED, IN_PROGRESS, NOT_SERVING }

    private final Optional<Path> checks;
    private final Supplier<Target> self;
    private final String token;
    private final BaselinePolicy baselines;
    private final Duration callTimeout;
    private final Clock clock;
    private volatile Verification last;

    /**
     * @param self this server's MCP and admin listeners, or null while they are not serving yet
     * @param token the bearer token of this server, used for the baseline too: the running version
     *              and its candidate read one Secret
     * @param baselines where a baseline may be: the token goes nowhere else
     */
    public VerificationRuns(Optional<Path> checks, Supplier<Target> self, String token, BaselinePolicy baselines,
                            Duration callTimeout, Clock clock) {
        this.checks = checks;
        this.self = self;
        this.token = token;
        this.baselines = baselines;
        this.callTimeout = callTimeout;
        this.clock = clock;
    }

    public boolean configured() {
        return checks.isPresent();
    }

    /**
     * Starts a run unless one is in progress.
     *
     * @throws VerifyException when the baseline is not an http(s) address (nothing starts)
     * @throws BaselineRefused when a baseline address is not on the allowed list (nothing starts, nothing is sent)
     */
    public synchronized Start start(String baselineMcpUrl, String baselineAdminUrl) {
        if (checks.isEmpty()) {
            return Start.NOT_CONFIGURED;
        }
        Target candidate = self.get();
        if (candidate == null) {
            return Start.NOT_SERVING;
        }
        if (last != null && !last.finished()) {
            return Start.IN_PROGRESS;
        }
        Target baseline = null;
        if (baselineMcpUrl != null && !baselineMcpUrl.isBlank()) {
            // The admin address is used only when named: derived from the MCP one it could be a port the list does not cover.
            Target named = Target.of(baselineMcpUrl, baselineAdminUrl == null || baselineAdminUrl.isBlank() ? baselineMcpUrl
                    : baselineAdminUrl, token);
            URI mcp = URI.create(named.mcpUrl());
            URI admin = baselineAdminUrl == null || baselineAdminUrl.isBlank() ? null : named.adminUrl();
            for (URI address : admin == null ? List.of(mcp) : List.of(mcp, admin)) {
                Optional<String> why = baselines.refusal(address);
                if (why.isPresent()) {
                    LOG.warn("verification refused a baseline off the allowed list ({}): {}", baselines.describe(), why.get());
                    throw new BaselineRefused(why.get());
                }
            }
            baseline = new Target(named.mcpUrl(), admin, token);
            if (candidate.inProcess() != null) {
                // Mode jwt: no token this server holds would open a baseline's port (and minting one
                // would be a door into every project), so the checks are judged on their expectations alone.
                LOG.info("verification without the baseline {}: in mode jwt this server holds no credential it would accept",
                        baseline.mcpUrl());
                baseline = null;
            }
        }
        String startedAt = now();
        last = new Verification(Verification.State.RUNNING, null, candidate.mcpUrl(), baseline == null ? null : baseline.mcpUrl(),
                startedAt, null, 0, 0, 0, List.of(), null);
        Target against = baseline;
        Thread t = new Thread(() -> last = run(candidate, against, startedAt), "verification");
        t.setDaemon(true);
        t.start();
        return Start.STARTED;
    }

    /** A baseline this server may not call; the message says why, never echoing more than the rule. */
    public static final class BaselineRefused extends RuntimeException {
        BaselineRefused(String message) {
            super(message);
        }
    }

    /** The last run (running or finished), if any. */
    public Optional<Verification> last() {
        return Optional.ofNullable(last);
    }

    private Verification run(Target candidate, Target baseline, String startedAt) {
        String baselineUrl = baseline == null ? null : baseline.mcpUrl();
        try {
            ChecksFile file = ChecksFile.load(checks.get());
            Verification v = ReportMapping.finished(new Verifier(callTimeout).run(file, candidate, baseline), startedAt, now());
            LOG.info("verification {}: {} ({} passed, {} failed, {} differences)",
                    baselineUrl == null ? "without a baseline" : "against baseline " + baselineUrl, v.state().json(),
                    v.passed(), v.failed(), v.differences());
            return v;
        } catch (RuntimeException e) {
            // A bad checks file or a runner fault: a failed run that says why, never a pass.
            String why = e instanceof VerifyException ? e.getMessage() : e.getClass().getSimpleName() + ": " + e.getMessage();
            LOG.warn("verification could not run: {}", why);
            return new Verification(Verification.State.FAILED, null, candidate.mcpUrl(), baselineUrl, startedAt, now(), 0, 0, 0,
                    List.of(), why);
        }
    }

    private String now() {
        return Instant.now(clock).truncatedTo(ChronoUnit.MILLIS).toString();
    }
}
