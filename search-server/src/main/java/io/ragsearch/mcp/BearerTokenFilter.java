package io.ragsearch.mcp;

import io.ragsearch.auth.AuthFailure;
import io.ragsearch.auth.Caller;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Optional bearer-token check on /mcp (RAGSEARCH_AUTH_TOKEN; the operator fills it from a
 * Secret). The admin port is not covered: probes and the operator read it without a token.
 */
final class BearerTokenFilter implements Filter {

    private final byte[] expected;
    private final AuthEvents events;

    BearerTokenFilter(String token, AuthEvents events) {
        this.expected = token.getBytes(StandardCharsets.UTF_8);
        this.events = events;
    }

    /** The token of an {@code Authorization: Bearer} header (scheme case-insensitive, RFC 6750), or null. */
    static String presented(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        return header != null && header.regionMatches(true, 0, "Bearer ", 0, 7) && !header.substring(7).isBlank()
                ? header.substring(7).strip() : null;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        long start = System.nanoTime();
        HttpServletRequest request = (HttpServletRequest) req;
        String presented = presented(request);
        // Constant-time comparison: the time to reject must not tell how much of the token was right.
        if (presented != null && MessageDigest.isEqual(expected, presented.getBytes(StandardCharsets.UTF_8))) {
            request.setAttribute(Caller.ATTRIBUTE, Caller.STATIC_TOKEN);
            chain.doFilter(req, res);
            events.served(request, (HttpServletResponse) res, Caller.STATIC_TOKEN, start);
            return;
        }
        HttpServletResponse response = (HttpServletResponse) res;
        events.refused(request, presented == null ? AuthFailure.MISSING : AuthFailure.STATIC_TOKEN);
        response.setHeader("WWW-Authenticate", presented == null
                ? "Bearer realm=\"ragsearch\"" : "Bearer realm=\"ragsearch\", error=\"invalid_token\"");
        TransportGuardFilter.reject(response, 401, -32001, presented == null ? "missing bearer token" : "invalid bearer token");
    }
}
