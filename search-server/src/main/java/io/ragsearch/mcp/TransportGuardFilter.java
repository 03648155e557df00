package io.ragsearch.mcp;

import jakarta.servlet.Filter;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import tools.jackson.core.JacksonException;
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

/**
 * Rejects malformed transport requests before the SDK sees them, with a clean JSON-RPC error:
 * the SDK's own rejections serialise a Java stack trace to the client.
 */
final class TransportGuardFilter implements Filter {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final long maxBodyBytes;

    TransportGuardFilter(long maxBodyBytes) {
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        if (!request.getMethod().equals("POST")) {
            response.setHeader("Allow", "POST");
            reject(response, 405, -32600, "this stateless MCP endpoint takes POST only");
            return;
        }
        String type = request.getContentType();
        if (type == null || !type.toLowerCase().startsWith("application/json")) {
            reject(response, 415, -32600, "Content-Type must be application/json");
            return;
        }
        String accept = request.getHeader("Accept");
        if (accept == null || !(accept.contains("application/json") && accept.contains("text/event-stream"))) {
            reject(response, 406, -32600, "Accept must list application/json and text/event-stream");
            return;
        }
        if (request.getContentLengthLong() > maxBodyBytes) {
            reject(response, 413, -32600, "request body exceeds " + maxBodyBytes + " bytes");
            return;
        }
        byte[] body = request.getInputStream().readNBytes((int) maxBodyBytes + 1);
        if (body.length > maxBodyBytes) {
            reject(response, 413, -32600, "request body exceeds " + maxBodyBytes + " bytes");
            return;
        }
        JsonNode message;
        try {
            message = JSON.readTree(body);
        } catch (JacksonException e) {
            reject(response, 400, -32700, "parse error: the body is not valid JSON");
            return;
        }
        if (message == null || !message.isObject()) {
            reject(response, 400, -32600, message != null && message.isArray()
                    ? "batches are not supported: send one JSON-RPC message per request"
                    : "the body must be one JSON-RPC message object");
            return;
        }
        chain.doFilter(new CachedBodyRequest(request, body), res);
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

    /** A clean JSON-RPC error response; the auth filter answers through it too. */
    static void reject(HttpServletResponse response, int status, int code, String message) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        String body = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":" + code + ",\"message\":\""
                + message.replace("\"", "'") + "\"}}";
        response.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
    }
}
