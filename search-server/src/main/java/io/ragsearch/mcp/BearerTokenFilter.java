package io.ragsearch.mcp;

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

    BearerTokenFilter(String token) {
        this.expected = token.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        String header = ((HttpServletRequest) req).getHeader("Authorization");
        String presented = header != null && header.regionMatches(true, 0, "Bearer ", 0, 7) ? header.substring(7).strip() : null;
        // Constant-time comparison: the time to reject must not tell how much of the token was right.
        if (presented != null && MessageDigest.isEqual(expected, presented.getBytes(StandardCharsets.UTF_8))) {
            chain.doFilter(req, res);
            return;
        }
        HttpServletResponse response = (HttpServletResponse) res;
        response.setHeader("WWW-Authenticate", presented == null
                ? "Bearer realm=\"ragsearch\"" : "Bearer realm=\"ragsearch\", error=\"invalid_token\"");
        TransportGuardFilter.reject(response, 401, -32001, presented == null ? "missing bearer token" : "invalid bearer token");
    }
}
