package io.ragsearch.mcp;

import io.ragsearch.auth.AuthFailure;
import io.ragsearch.auth.Caller;
import io.ragsearch.metrics.Metrics;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.EnumMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an authenticated /mcp leaves for operators: refusals counted by reason
 * ({@code ragsearch_auth_failures_total}), and an access log line per request naming the caller's
 * subject, never the token (logger {@code ragsearch.access}).
 */
final class AuthEvents {

    private static final Logger ACCESS = LoggerFactory.getLogger("ragsearch.access");
    private final Map<AuthFailure, Metrics.Counter> failures = new EnumMap<>(AuthFailure.class);

    AuthEvents(Metrics metrics) {
        for (AuthFailure f : AuthFailure.values()) {
            // Every reason from the start, at 0: a dashboard's rate() needs the series before the first failure.
            failures.put(f, metrics.counter("ragsearch_auth_failures_total",
                    "Requests to /mcp refused by authentication or authorization, by reason", "reason=\"" + f.label() + "\""));
        }
    }

    void refused(HttpServletRequest request, AuthFailure failure) {
        failures.get(failure).inc();
        ACCESS.info("{} {} {} refused={} from={}", request.getMethod(), request.getRequestURI(), failure.status(), failure.label(),
                request.getRemoteAddr());
    }

    void served(HttpServletRequest request, HttpServletResponse response, Caller caller, long startNanos) {
        ACCESS.info("{} {} {} subject={} from={} {} ms", request.getMethod(), request.getRequestURI(), response.getStatus(),
                caller.subject(), request.getRemoteAddr(), (System.nanoTime() - startNanos) / 1_000_000);
    }
}
