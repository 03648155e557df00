package io.ragsearch.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.ragsearch.embed.TextEmbedder;
import io.ragsearch.metrics.Metrics;
import io.ragsearch.search.ProjectCatalog;
import io.ragsearch.search.SearchLimits;
import io.ragsearch.search.SearchService;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The registry: the four tools in the order clients list them, all read-only under their own titles. */
class SearchToolsTest {

    @Test
    void theFourToolsInOrderEachReadOnlyUnderItsTitle() {
        ProjectCatalog catalog = new ProjectCatalog();
        List<ToolDefinition> tools = new SearchTools(catalog, new SearchService(catalog, (TextEmbedder) null, SearchLimits.DEFAULTS),
                new Metrics()).definitions();
        assertEquals(List.of("list_projects", "search", "list_documents", "read_article"), tools.stream().map(ToolDefinition::name).toList());
        for (ToolDefinition t : tools) {
            assertEquals(ToolDefinition.Hints.readOnly(t.title()), t.hints(), t.name());
            assertFalse(t.reranks().test(Map.of("project", "absent")), t.name() + ": an unknown project never takes the rerank lane");
        }
    }
}
