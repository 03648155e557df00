package io.ragsearch.mcpclient;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ListToolsResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A running server's MCP endpoint over Streamable HTTP, asked exactly as an agent asks it. Shared
 * by {@code eval --url} and {@code verify}: failures become {@link McpClientException}s whose
 * message a person can act on (nothing answers, no answer in time, unknown host), never a trace.
 */
public final class McpToolClient implements ToolClient {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** A status code as the SDK's transport states it in its exceptions ("HTTP 500", "status code: 500", "status=500"). */
    private static final java.util.regex.Pattern STATUS = java.util.regex.Pattern.compile(
            "(?i)(?:\\bHTTP|status(?:[ _]?code)?)\\D{0,3}([1-5]\\d\\d)\\b");

    private final String url;
    private final McpSyncClient client;

    /**
     * Connects and initializes.
     *
     * @param url     the MCP endpoint, e.g. http://127.0.0.1:8080/mcp (path /mcp when none is given)
     * @param token   a bearer token, or null
     * @param timeout how long one request may take
     */
    public McpToolClient(String url, String token, Duration timeout) {
        URI uri = parse(url);
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/mcp" : uri.getRawPath();
        String base = uri.getScheme() + "://" + uri.getRawAuthority();
        Duration connect = timeout.compareTo(CONNECT_TIMEOUT) < 0 ? timeout : CONNECT_TIMEOUT;
        HttpClientStreamableHttpTransport.Builder transport = HttpClientStreamableHttpTransport.builder(base).endpoint(path)
                .connectTimeout(connect);
        if (token != null && !token.isBlank()) {
            transport.requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token));
        }
        this.url = base + path;
        this.client = McpClient.sync(transport.build()).requestTimeout(timeout).build();
        try {
            client.initialize();
        } catch (RuntimeException e) {
            client.closeGracefully();
            throw new McpClientException("cannot reach the MCP server at " + this.url + ": " + reason(e));
        }
    }

    /** The address as an http(s) URI, or an error saying what an address looks like. */
    public static URI parse(String url) {
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            uri = null;
        }
        if (uri == null || uri.getScheme() == null || uri.getHost() == null || !uri.getScheme().startsWith("http")) {
            throw new McpClientException("--url must be an http(s) address such as http://127.0.0.1:8080/mcp, got '" + url + "'");
        }
        return uri;
    }

    public String url() {
        return url;
    }

    /** Calls a tool; a tool error is an answer ({@link ToolAnswer#error()}), a transport failure an exception. */
    @Override
    @SuppressWarnings("unchecked")
    public ToolAnswer call(String tool, Map<String, Object> arguments) {
        CallToolResult r;
        try {
            r = client.callTool(new CallToolRequest(tool, arguments));
        } catch (RuntimeException e) {
            throw new McpClientException("the MCP server at " + url + " did not answer " + tool + ": " + reason(e));
        }
        String text = r.content() == null ? "" : r.content().stream().filter(c -> c instanceof TextContent)
                .map(c -> ((TextContent) c).text()).collect(Collectors.joining("\n"));
        Object structured = r.structuredContent();
        return new ToolAnswer(Boolean.TRUE.equals(r.isError()), text,
                structured instanceof Map<?, ?> m ? (Map<String, Object>) m : null);
    }

    /** Every tool the server lists (following pagination). */
    @Override
    public List<Tool> tools() {
        List<Tool> out = new ArrayList<>();
        try {
            String cursor = null;
            do {
                ListToolsResult page = cursor == null ? client.listTools() : client.listTools(cursor);
                out.addAll(page.tools());
                cursor = page.nextCursor();
            } while (cursor != null && !cursor.isEmpty());
        } catch (RuntimeException e) {
            throw new McpClientException("the MCP server at " + url + " did not list its tools: " + reason(e));
        }
        return out;
    }

    @Override
    public void close() {
        client.closeGracefully();
    }

    /** Why a call failed, in words: a person reads this, not a stack trace. */
    public static String reason(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.net.ConnectException || t instanceof java.nio.channels.ClosedChannelException) {
                return "nothing answers there (connection refused or closed): is the server running, and is the address right?";
            }
            if (t instanceof java.net.http.HttpTimeoutException || t instanceof java.util.concurrent.TimeoutException) {
                return "no answer in time";
            }
            if (t instanceof java.nio.channels.UnresolvedAddressException || t instanceof java.net.UnknownHostException) {
                return "unknown host";
            }
        }
        // Never the other side's words: an answer's body (what a baseline or any URL sent back) is
        // not repeated, only its status code or the kind of failure.
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            java.util.regex.Matcher status = STATUS.matcher(String.valueOf(t.getMessage()));
            if (status.find()) {
                return "answered HTTP " + status.group(1);
            }
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return "the call failed (" + root.getClass().getSimpleName() + ")";
    }
}
