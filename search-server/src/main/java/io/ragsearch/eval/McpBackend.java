package io.ragsearch.eval;

import io.ragsearch.mcpclient.McpClientException;
import io.ragsearch.mcpclient.McpToolClient;
import io.ragsearch.mcpclient.ToolAnswer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A running server, asked through its search tool over Streamable HTTP exactly as an agent asks it. */
public final class McpBackend implements SearchBackend {

    private final McpToolClient client;

    /**
     * @param url   the server's MCP endpoint, e.g. http://127.0.0.1:8080/mcp
     * @param token a bearer token, or null
     */
    public McpBackend(String url, String token, Duration timeout) {
        try {
            this.client = new McpToolClient(url, token, timeout);
        } catch (McpClientException e) {
            throw new EvalException(e.getMessage());
        }
    }

    @Override
    public String name() {
        return client.url();
    }

    @Override
    @SuppressWarnings("unchecked")
    public Answer search(String project, String query, int topK) {
        ToolAnswer r;
        try {
            r = client.call("search", Map.of("project", project, "query", query, "top_k", topK));
        } catch (McpClientException e) {
            throw new EvalException(e.getMessage());
        }
        if (r.error()) {
            throw new EvalException("the server answered a tool error: " + (r.text().isEmpty() ? "(no message)" : r.text()));
        }
        Map<String, Object> body = r.structured();
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
        client.close();
    }
}
