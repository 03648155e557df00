package io.ragsearch.eval;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A running server, asked through its search tool over Streamable HTTP exactly as an agent asks it. */
public final class McpBackend implements SearchBackend {

    private final String url;
    private final McpSyncClient client;

    /**
     * @param url   the server's MCP endpoint, e.g. http://127.0.0.1:8080/mcp
     * @param token a bearer token, or null
     */
    public McpBackend(String url, String token, Duration timeout) {
        URI uri = URI.create(url);
        if (uri.getScheme() == null || uri.getHost() == null || !uri.getScheme().startsWith("http")) {
            throw new EvalException("--url must be an http(s) address such as http://127.0.0.1:8080/mcp, got '" + url + "'");
        }
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/mcp" : uri.getRawPath();
        String base = uri.getScheme() + "://" + uri.getRawAuthority();
        HttpClientStreamableHttpTransport.Builder transport = HttpClientStreamableHttpTransport.builder(base).endpoint(path)
                .connectTimeout(Duration.ofSeconds(10));
        if (token != null && !token.isBlank()) {
            transport.requestBuilder(java.net.http.HttpRequest.newBuilder().header("Authorization", "Bearer " + token));
        }
        this.url = base + path;
        this.client = McpClient.sync(transport.build()).requestTimeout(timeout).build();
        try {
            client.initialize();
        } catch (RuntimeException e) {
            client.closeGracefully();
            throw new EvalException("cannot reach the MCP server at " + this.url + ": " + rootMessage(e));
        }
    }

    @Override
    public String name() {
        return url;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Answer search(String project, String query, int topK) {
        CallToolResult r;
        try {
            r = client.callTool(new CallToolRequest("search", Map.of("project", project, "query", query, "top_k", topK)));
        } catch (RuntimeException e) {
            throw new EvalException("the MCP server at " + url + " did not answer a search: " + rootMessage(e));
        }
        if (Boolean.TRUE.equals(r.isError())) {
            String text = r.content().stream().filter(c -> c instanceof TextContent).map(c -> ((TextContent) c).text())
                    .findFirst().orElse("(no message)");
            throw new EvalException("the server answered a tool error: " + text);
        }
        Map<String, Object> body = (Map<String, Object>) r.structuredContent();
        List<ArticleRef> results = new ArrayList<>();
        for (Object o : (List<Object>) body.get("results")) {
            Map<String, Object> hit = (Map<String, Object>) o;
            results.add(new ArticleRef((String) hit.get("document"), (String) hit.get("article")));
        }
        Map<String, Object> gate = (Map<String, Object>) body.get("gate");
        return new Answer(results, !Boolean.TRUE.equals(gate.get("passed")), ((Number) gate.get("bestScore")).doubleValue());
    }

    @Override
    public void close() {
        client.closeGracefully();
    }

    /** Why a connection failed, in words: a person reads this, not a stack trace. */
    private static String rootMessage(Throwable e) {
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
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? "the connection failed" : root.getMessage();
    }
}
