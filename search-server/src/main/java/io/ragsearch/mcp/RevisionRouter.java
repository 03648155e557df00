package io.ragsearch.mcp;

import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * One endpoint, two SDK servers: the transport guard has judged each request and marked the
 * revision that serves it; this hands the request to that server's servlet. Both run behind
 * the same filters (Origin/Host, bearer token, guard) and the same in-flight cap.
 */
final class RevisionRouter extends HttpServlet {

    private final HttpServlet legacy;
    private final HttpServlet modern;

    RevisionRouter(HttpServlet legacy, HttpServlet modern) {
        this.legacy = legacy;
        this.modern = modern;
    }

    @Override
    public void init(ServletConfig config) throws ServletException {
        super.init(config);
        legacy.init(config);
        modern.init(config);
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        HttpServlet target = Boolean.TRUE.equals(request.getAttribute(TransportGuardFilter.MODERN_ATTRIBUTE)) ? modern : legacy;
        target.service(request, response);
    }

    @Override
    public void destroy() {
        legacy.destroy();
        modern.destroy();
    }
}
