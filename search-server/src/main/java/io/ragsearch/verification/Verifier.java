package io.ragsearch.verification;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Runs a checks file against a candidate server and, when given, a baseline, side by side: each
 * check is asked of both at once (health checks one after the other, so that the two loads do not
 * share a machine's cores), judged on the candidate, and compared. A library class: the CLI calls
 * it, and a server can call it in process against itself and the running version.
 */
public final class Verifier {

    /** How long one call may take unless told otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private final Duration timeout;

    public Verifier(Duration timeout) {
        if (timeout.isZero() || timeout.isNegative()) {
            throw new VerifyException("the timeout must be positive");
        }
        this.timeout = timeout;
    }

    /**
     * @param baseline the running version to compare with, or null
     */
    public VerifyReport run(ChecksFile file, Target candidate, Target baseline) {
        long t0 = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "verify");
            t.setDaemon(true);
            return t;
        });
        try {
            CompletableFuture<Side> baseSide = baseline == null ? CompletableFuture.completedFuture(null)
                    : CompletableFuture.supplyAsync(() -> Side.connect(baseline, timeout), pool);
            try (Side cand = Side.connect(candidate, timeout); Side base = baseSide.join()) {
                List<CheckResult> rows = new ArrayList<>();
                for (Check check : file.checks()) {
                    rows.add(run(check, cand, base, pool));
                }
                return VerifyReport.of(file.set(), candidate.mcpUrl(), baseline == null ? null : baseline.mcpUrl(), rows,
                        (System.nanoTime() - t0) / 1e9);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static CheckResult run(Check check, Side candidate, Side baseline, ExecutorService pool) {
        Observation b = null;
        Observation c;
        if (baseline == null) {
            c = check.observe(candidate);
        } else if (check instanceof HealthCheck) {
            b = check.observe(baseline);
            c = check.observe(candidate);
        } else {
            CompletableFuture<Observation> onBaseline = CompletableFuture.supplyAsync(() -> check.observe(baseline), pool);
            c = check.observe(candidate);
            b = onBaseline.join();
        }
        String candidateProblem = check.problem(c, b);
        Outcome candidateOutcome = new Outcome(c.shown(), candidateProblem == null, candidateProblem, round(c.millis()));
        Outcome baselineOutcome = null;
        String difference = null;
        if (b != null) {
            // The baseline is judged on the expectation alone: it is what the candidate is compared with.
            String baselineProblem = check.problem(b, null);
            baselineOutcome = new Outcome(b.shown(), baselineProblem == null, baselineProblem, round(b.millis()));
            difference = check.difference(b, c);
            if (difference == null && baselineOutcome.met() != candidateOutcome.met()) {
                difference = baselineOutcome.met() ? "baseline passes, candidate fails" : "baseline fails, candidate passes";
            }
        }
        return new CheckResult(check.id(), check.kind(), check.describe(), baselineOutcome, candidateOutcome, candidateOutcome.met(),
                difference);
    }

    private static double round(double millis) {
        return Math.round(millis * 10) / 10.0;
    }
}
