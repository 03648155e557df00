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

/**
 * Rejects malformed transport requests before the SDK sees them, with a clean JSON-RPC error
 * ({@link McpRequestRules} says what is malformed): the SDK's own rejections serialise a Java
 * stack trace to the client.
 */
final class TransportGuardFilter implements Filter {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final McpRequestRules rules;

    TransportGuardFilter(McpRequestRules rules) {
        this.rules = rules;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        Optional<McpRequestRules.Rejection> bad = rules.checkHeaders(request.getMethod(), request.getContentType(),
                request.getHeader("Accept"), request.getHeader("MCP-Protocol-Version"), request.getContentLengthLong());
        if (bad.isEmpty()) {
            byte[] body = McpRequestRules.withoutBom(request.getInputStream().readNBytes((int) rules.maxBodyBytes() + 1));
            bad = rules.checkBody(body);
            if (bad.isEmpty()) {
                chain.doFilter(new CachedBodyRequest(request, body), res);
                return;
            }
        }
        if (bad.get().status() == 405) {
            response.setHeader("Allow", "POST");
        }
        reject(response, bad.get().status(), bad.get().code(), bad.get().message(), bad.get().id());
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
        reject(response, status, code, message, null);
    }

    static void reject(HttpServletResponse response, int status, int code, String message, JsonNode id) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", code);
        error.put("message", message);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("jsonrpc", "2.0");
        body.put("id", id);
        body.put("error", error);
        response.getOutputStream().write(JSON.writeValueAsBytes(body));
    }
}
