package io.ragsearch.mcp;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;

/** The DNS-rebinding check, first on /mcp: a refused Origin or Host learns nothing else about the server. */
final class OriginHostFilter implements Filter {

    private final TransportSecurityPolicy policy;

    OriginHostFilter(TransportSecurityPolicy policy) {
        this.policy = policy;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        Optional<TransportSecurityPolicy.Refusal> refusal = policy.check(request.getHeader("Host"), request.getHeader("Origin"));
        if (refusal.isPresent()) {
            TransportGuardFilter.reject((HttpServletResponse) res, refusal.get().status(), -32600, refusal.get().message());
            return;
        }
        chain.doFilter(req, res);
    }
}
