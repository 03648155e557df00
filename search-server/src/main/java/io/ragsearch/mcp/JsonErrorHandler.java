package io.ragsearch.mcp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Errors Jetty answers itself (a header too large, a body past the eager-read limit, a request
 * the servlet could not finish) as a small JSON-RPC error: status and reason only, never a
 * stack trace, a class name or the server's version.
 */
final class JsonErrorHandler extends ErrorHandler {

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
                                    Callback callback) throws IOException {
        String reason = HttpStatus.getMessage(code);
        String body = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":" + (code >= 500 ? -32603 : -32600)
                + ",\"message\":\"HTTP " + code + " " + reason + "\"}}";
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.write(true, java.nio.ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
    }
}
