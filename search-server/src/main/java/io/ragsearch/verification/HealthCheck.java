package io.ragsearch.verification;

import io.ragsearch.mcpclient.McpClientException;
import io.ragsearch.mcpclient.McpToolClient;
import io.ragsearch.mcpclient.ToolClient;
import io.ragsearch.mcpclient.ToolAnswer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code /livez} on the admin listener answers 200 within {@code budgetMillis} every time it is
 * polled (every {@link #POLL_MILLIS} ms for {@code seconds}) while {@code searches} clients, each
 * with its own connection, search without pause. Health must never wait behind tool work.
 */
public record HealthCheck(String id, String project, String query, int searches, int budgetMillis, int seconds) implements Check {

    static final int POLL_MILLIS = 50;

    /** Polls, the slowest and how many were over budget or not 200, and how the searches ended. */
    record Facts(int polls, double slowestMillis, int overBudget, int notOk, int searchesOk, int searchesFailed, String searchFailure) {
    }

    @Override
    public String kind() {
        return "health";
    }

    @Override
    public String describe() {
        return "/livez within " + budgetMillis + " ms while " + searches + " clients search " + project + " for " + seconds + " s";
    }

    @Override
    public Observation observe(Side side) {
        if (side.client() == null) {
            return Calls.unreachable(side);
        }
        URI admin = side.target().adminUrl();
        if (admin == null) {
            return Observation.failed("no admin URL", "the admin address is not known (the MCP URL has no port): give --admin-url", 0);
        }
        URI livez = admin.resolve("/livez");
        long t0 = System.nanoTime();
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger ok = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(searches, r -> {
            Thread t = new Thread(r, "verify-health-load");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> load = new ArrayList<>();
            for (int i = 0; i < searches; i++) {
                load.add(pool.submit(() -> searchUntilStopped(side, running, ok, failed, failures)));
            }
            HttpClient http = HttpClient.newBuilder().connectTimeout(side.timeout()).build();
            HttpRequest request = HttpRequest.newBuilder(livez).timeout(side.timeout()).build();
            int polls = 0;
            int over = 0;
            int notOk = 0;
            double slowest = 0;
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            while (System.nanoTime() < end) {
                long p0 = System.nanoTime();
                try {
                    HttpResponse<Void> r = http.send(request, HttpResponse.BodyHandlers.discarding());
                    if (r.statusCode() != 200) {
                        notOk++;
                    }
                } catch (java.io.IOException e) {
                    notOk++;
                    failures.add("/livez: " + McpToolClient.reason(e));
                }
                double ms = Calls.millisSince(p0);
                polls++;
                slowest = Math.max(slowest, ms);
                if (ms > budgetMillis) {
                    over++;
                }
                Thread.sleep(POLL_MILLIS);
            }
            running.set(false);
            for (Future<?> f : load) {
                f.get();
            }
            Facts facts = new Facts(polls, slowest, over, notOk, ok.get(), failed.get(), failures.isEmpty() ? null : failures.get(0));
            return Observation.of(String.format(Locale.ROOT, "livez max %.0f ms, %d searches", slowest, ok.get()), facts,
                    Calls.millisSince(t0));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Observation.failed("interrupted", "the health check was interrupted", Calls.millisSince(t0));
        } catch (java.util.concurrent.ExecutionException e) {
            return Observation.failed("call failed", McpToolClient.reason(e), Calls.millisSince(t0));
        } finally {
            running.set(false);
            pool.shutdownNow();
        }
    }

    private Void searchUntilStopped(Side side, AtomicBoolean running, AtomicInteger ok, AtomicInteger failed, List<String> failures) {
        ToolClient client;
        try {
            client = side.newClient();
        } catch (McpClientException e) {
            failed.incrementAndGet();
            failures.add(e.getMessage());
            return null;
        }
        try {
            while (running.get()) {
                try {
                    ToolAnswer a = client.call("search", Map.of("project", project, "query", query));
                    if (a.error()) {
                        failed.incrementAndGet();
                        failures.add("search: " + Calls.firstLine(a.text()));
                    } else {
                        ok.incrementAndGet();
                    }
                } catch (McpClientException e) {
                    failed.incrementAndGet();
                    failures.add(e.getMessage());
                }
            }
        } finally {
            client.close();
        }
        return null;
    }

    @Override
    public String problem(Observation own, Observation baseline) {
        if (own.failed()) {
            return own.failure();
        }
        Facts f = (Facts) own.facts();
        if (f.notOk() > 0) {
            return f.notOk() + " of " + f.polls() + " /livez polls did not answer 200" + (f.searchFailure() != null && f.searchFailure().startsWith("/livez")
                    ? " (" + f.searchFailure() + ")" : "");
        }
        if (f.overBudget() > 0) {
            return String.format(Locale.ROOT, "%d of %d /livez polls took longer than %d ms (slowest %.0f ms)", f.overBudget(), f.polls(),
                    budgetMillis, f.slowestMillis());
        }
        if (f.searchesOk() == 0) {
            return "no search succeeded, so nothing loaded the server" + (f.searchFailure() != null ? ": " + f.searchFailure() : "");
        }
        return null;
    }

    /** Latencies differ on every run; only a changed verdict is a difference (the runner reports that). */
    @Override
    public String difference(Observation baseline, Observation candidate) {
        return baseline.failed() || candidate.failed() ? Check.shownDifference(baseline, candidate, null, null) : null;
    }
}
