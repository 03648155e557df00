package io.ragsearch.mcp;

import io.ragsearch.auth.AuthFailure;
import io.ragsearch.auth.Caller;
import io.ragsearch.auth.TokenVerifier;
import io.ragsearch.search.ProjectScope;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * /mcp as an OAuth resource server: every request carries a JWT the {@link TokenVerifier} accepts,
 * or is refused as the MCP authorization specification says — 401 with a {@code WWW-Authenticate}
 * challenge naming the protected resource metadata ({@code error="invalid_token"} when a token was
 * given), 403 {@code insufficient_scope} for a good token that grants nothing here, 503 while the
 * issuer's keys cannot be had (never let through). The accepted caller goes on as a request
 * attribute, for the tools to scope projects by.
 */
final class JwtAuthFilter implements Filter {

    private final TokenVerifier verifier;
    private final ProtectedResource resource;
    private final AuthEvents events;

    JwtAuthFilter(TokenVerifier verifier, ProtectedResource resource, AuthEvents events) {
        this.verifier = verifier;
        this.resource = resource;
        this.events = events;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        long start = System.nanoTime();
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        String token = BearerTokenFilter.presented(request);
        if (token == null) {
            refuse(request, response, AuthFailure.MISSING);
            return;
        }
        TokenVerifier.Verdict verdict = verifier.verify(token);
        if (!verdict.ok()) {
            refuse(request, response, verdict.failure());
            return;
        }
        if (verdict.caller().scope() == ProjectScope.NONE) {
            // A good token whose subject no access rule names: authenticated, but nothing here is for it.
            refuse(request, response, AuthFailure.INSUFFICIENT_SCOPE);
            return;
        }
        request.setAttribute(Caller.ATTRIBUTE, verdict.caller());
        chain.doFilter(req, res);
        events.served(request, response, verdict.caller(), start);
    }

    private void refuse(HttpServletRequest request, HttpServletResponse response, AuthFailure failure) throws IOException {
        events.refused(request, failure);
        if (failure.status() == 503) {
            response.setHeader("Retry-After", "5");
        } else {
            response.setHeader("WWW-Authenticate", resource.challenge(request, failure.error(), failure.message()));
        }
        TransportGuardFilter.reject(response, failure.status(), -32001, failure.message());
    }
}
