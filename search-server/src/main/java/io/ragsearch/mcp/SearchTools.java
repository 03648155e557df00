package io.ragsearch.mcp;

import io.ragsearch.metrics.Metrics;
import io.ragsearch.search.ProjectCatalog;
import io.ragsearch.search.SearchService;
import java.util.List;

/**
 * The four read-only MCP tools over the project catalog, in the order clients list them, each
 * defined once for both protocol revisions ({@link ToolDefinition}) by its own class:
 * {@link ListProjectsTool}, {@link SearchTool}, {@link ListDocumentsTool}, {@link ReadArticleTool}.
 * {@link ToolCatalog} runs them.
 */
public final class SearchTools {

    private final List<ToolDefinition> definitions;

    public SearchTools(ProjectCatalog catalog, SearchService search, Metrics metrics) {
        ProjectCalls calls = new ProjectCalls(metrics);
        this.definitions = List.of(new ListProjectsTool(catalog).definition(), new SearchTool(catalog, search, calls, metrics).definition(),
                new ListDocumentsTool(catalog, calls).definition(), new ReadArticleTool(catalog, calls).definition());
    }

    public List<ToolDefinition> definitions() {
        return definitions;
    }
}
