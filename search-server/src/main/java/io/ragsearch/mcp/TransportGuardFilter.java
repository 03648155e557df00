package io.ragsearch.mcp;

import jakarta.servlet.Filter;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rejects malformed transport requests before the SDK sees them, with a clean JSON-RPC error
 * ({@link McpRequestRules} says what is malformed): the SDK's own rejections serialise a Java
 * stack trace to the client. Echoes the request's id whenever the body could be read. Marks
 * each passing request with the revision that serves it ({@link #MODERN_ATTRIBUTE}), and
 * answers for the 2025 revisions what the catalog decides there (unknown tool, cursor), since
 * the SDK's stateless server would answer a placeholder or ignore the cursor.
 */
final class TransportGuardFilter implements Filter {

    /** Request attribute: Boolean.TRUE when the 2026-07-28 server takes the request. */
    static final String MODERN_ATTRIBUTE = "io.ragsearch.mcp.modern";
    /** Request attribute: the JSON-RPC id as text, for the tool call's span ({@link ToolCallOrigin}). */
    static final String REQUEST_ID_ATTRIBUTE = "io.ragsearch.mcp.request-id";

    private static final Logger LOG = LoggerFactory.getLogger(TransportGuardFilter.class);
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final McpRequestRules rules;
    private final ToolCatalog catalog;

    TransportGuardFilter(McpRequestRules rules, ToolCatalog catalog) {
        this.rules = rules;
        this.catalog = catalog;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        if (rules.checkRequestLine(request.getMethod(), request.getContentLengthLong()) instanceof McpRequestRules.Reject r) {
            refuse(response, r);
            return;
        }
        byte[] body = McpRequestRules.withoutBom(request.getInputStream().readNBytes((int) rules.maxBodyBytes() + 1));
        McpRequestRules.Verdict verdict = rules.check(body, request.getContentType(), request.getHeader("Accept"),
                request.getHeader("MCP-Protocol-Version"));
        if (verdict instanceof McpRequestRules.Reject r) {
            refuse(response, r);
            return;
        }
        McpRequestRules.Accept accepted = (McpRequestRules.Accept) verdict;
        if (accepted.method().equals("notifications/cancelled")) {
            // Stateless: every call lives in its own HTTP request, which the client closes to cancel.
            LOG.debug("cancellation notice for request {}", accepted.params().path("requestId"));
            response.setStatus(202);
            return;
        }
        if (!accepted.modern()) {
            Optional<String> refusal = legacyRefusal(accepted.method(), accepted.params());
            if (refusal.isPresent()) {
                reject(response, 200, -32602, refusal.get(), accepted.id(), null);
                return;
            }
        }
        request.setAttribute(MODERN_ATTRIBUTE, accepted.modern());
        if (accepted.idText() != null) {
            request.setAttribute(REQUEST_ID_ATTRIBUTE, accepted.idText());
        }
        chain.doFilter(new CachedBodyRequest(request, body), res);
    }

    /** What the catalog refuses that the SDK's 2025 server would not. */
    private Optional<String> legacyRefusal(String method, JsonNode params) {
        if (method.equals("tools/list")) {
            JsonNode cursor = params.get("cursor");
            return ToolCatalog.badCursor(cursor == null || cursor.isNull() ? null : cursor.isString() ? cursor.asString() : cursor.toString());
        }
        if (method.equals("tools/call")) {
            String name = params.path("name").asString();
            if (catalog.find(name).isEmpty()) {
                return Optional.of(catalog.unknownTool(name));
            }
        }
        return Optional.empty();
    }

    private void refuse(HttpServletResponse response, McpRequestRules.Reject r) throws IOException {
        // A client's mistake, not the server's: below WARN.
        LOG.debug("refused: {} {}", r.status(), r.message());
        r.headers().forEach(response::setHeader);
        reject(response, r.status(), r.code(), r.message(), r.id(), r.data());
    }

    /** The request with its body already read, so the transport can read it again. */
    private static final class CachedBodyRequest extends HttpServletRequestWrapper {
        private final byte[] body;

        CachedBodyRequest(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException("the body is already in memory");
                }

                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            return new BufferedReader(new InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }
    }

    /** A clean JSON-RPC error response; the auth and Origin filters answer through it too. */
    static void reject(HttpServletResponse response, int status, int code, String message) throws IOException {
        reject(response, status, code, message, null, null);
    }

    static void reject(HttpServletResponse response, int status, int code, String message, JsonNode id, Object data)
            throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", code);
        error.put("message", message);
        if (data != null) {
            error.put("data", data);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("jsonrpc", "2.0");
        body.put("id", id);
        body.put("error", error);
        response.getOutputStream().write(JSON.writeValueAsBytes(body));
    }
}
