package io.ragsearch.mcp;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.ragsearch.auth.Caller;
import io.ragsearch.mcpclient.McpClientException;
import io.ragsearch.mcpclient.ToolAnswer;
import io.ragsearch.mcpclient.ToolClient;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * This server's own tools asked in process, for its verification of itself in mode jwt: the
 * checks go through {@link ToolCatalog#call} (argument rules, the tool pool and rerank lane, the
 * caller's scope) exactly as an HTTP call's body does, but no request crosses the authenticated
 * port, so no credential for it has to exist. The caller is given here, in code: no token, header
 * or request maps to it (docs/security.md, "The server's verification of itself").
 *
 * Answers pass through the SDK's JSON mapper, as they would on the wire, so the checks compare
 * the same shapes (numbers, schemas) an HTTP client reads.
 */
public final class InProcessToolClient implements ToolClient {

    private static final McpJsonMapper JSON = McpJsonDefaults.getMapper();
    private static final TypeRef<Map<String, Object>> OBJECT = new TypeRef<>() {
    };

    private final ToolCatalog catalog;
    private final Caller caller;
    private final Duration timeout;

    public InProcessToolClient(ToolCatalog catalog, Caller caller, Duration timeout) {
        this.catalog = catalog;
        this.caller = caller;
        this.timeout = timeout;
    }

    @Override
    public ToolAnswer call(String tool, Map<String, Object> arguments) {
        ToolDefinition d = catalog.find(tool).orElseThrow(() -> new McpClientException(catalog.unknownTool(tool)));
        ToolOutcome o;
        try {
            o = catalog.call(d, arguments, caller).block(timeout);
        } catch (RuntimeException e) {
            // Reactor's blocking read past its timeout says "Timeout"; then the words Calls recognises as a timeout.
            throw new McpClientException("this server did not answer " + tool + " in process: "
                    + (String.valueOf(e.getMessage()).contains("Timeout") ? "no answer in time" : "the call failed (" + e.getClass().getSimpleName() + ")"));
        }
        if (o == null) {
            throw new McpClientException("this server did not answer " + tool + " in process: the call completed empty");
        }
        Map<String, Object> structured = o.structured() == null ? null : JSON.convertValue(o.structured(), OBJECT);
        return new ToolAnswer(o.isError(), o.text(), structured);
    }

    @Override
    public List<Tool> tools() {
        List<Tool> out = new ArrayList<>();
        for (ToolDefinition d : catalog.definitions()) {
            try {
                out.add(JSON.readValue(JSON.writeValueAsString(LegacyTools.tool(d)), Tool.class));
            } catch (IOException e) {
                throw new McpClientException("tool " + d.name() + " does not serialise: " + e.getMessage());
            }
        }
        return out;
    }

    @Override
    public void close() {
        // Nothing held: the catalog is the server's.
    }
}
