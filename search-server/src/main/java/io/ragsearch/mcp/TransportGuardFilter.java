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

/**
 * Rejects malformed transport requests before the SDK sees them, with a clean JSON-RPC error:
 * the SDK's own rejections serialise a Java stack trace to the client.
 */
final class TransportGuardFilter implements Filter {

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
        chain.doFilter(req, res);
    }

    private static void reject(HttpServletResponse response, int status, int code, String message) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        String body = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":" + code + ",\"message\":\""
                + message.replace("\"", "'") + "\"}}";
        response.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
    }
}
