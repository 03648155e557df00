package io.ragsearch.mcp;

import static io.ragsearch.mcp.Schemas.array;
import static io.ragsearch.mcp.Schemas.closedObject;
import static io.ragsearch.mcp.Schemas.integer;
import static io.ragsearch.mcp.Schemas.object;
import static io.ragsearch.mcp.Schemas.props;
import static io.ragsearch.mcp.Schemas.string;

import io.ragsearch.search.Project;
import io.ragsearch.search.ProjectCatalog;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code list_projects}: the projects the caller may search, with their sizes. It takes no arguments. */
final class ListProjectsTool {

    private final ProjectCatalog catalog;

    ListProjectsTool(ProjectCatalog catalog) {
        this.catalog = catalog;
    }

    ToolDefinition definition() {
        Map<String, Object> project = object(props(
                "name", string("project name to pass to the other tools"),
                "description", string("what the project holds"),
                "documents", integer("number of documents", 0, Integer.MAX_VALUE),
                "articles", integer("number of articles", 0, Integer.MAX_VALUE),
                "language", string("analyzer language: korean or english"),
                "retrieval", string("retrieval mode in force: lexical, vector or hybrid"),
                "rerank", string("what reranking does in this project"),
                "corpusVersion", string("identifies the indexed content")),
                List.of("name", "description", "documents", "articles", "retrieval", "corpusVersion"));
        ToolSpec tool = new ToolSpec("list_projects", "List document projects")
                .description("Lists the document collections (projects) this server can search, with their sizes.")
                .inputSchema(closedObject(props(), List.of()))
                .outputSchema(object(props("projects", array(project)), List.of("projects")));
        return tool.body((args, caller) -> {
            List<ProjectSummary> projects = catalog.all(caller.scope()).stream().map(ProjectSummary::of).toList();
            return ToolResults.success(text(projects), Map.of("projects", projects));
        });
    }

    static String text(List<ProjectSummary> projects) {
        StringBuilder text = new StringBuilder(projects.size() + " project(s):\n");
        for (ProjectSummary p : projects) {
            text.append("- ").append(p.name()).append(": ").append(p.description().isEmpty() ? "(no description)" : p.description())
                    .append(" [").append(p.documents()).append(" documents, ").append(p.articles()).append(" articles, ")
                    .append(p.retrieval()).append("]\n");
        }
        return text.toString();
    }

    record ProjectSummary(String name, String description, int documents, int articles, String language,
                          String retrieval, String rerank, String corpusVersion) {
        static ProjectSummary of(Project p) {
            return new ProjectSummary(p.name(), p.description(), p.corpus().documents().size(), p.corpus().articleCount(),
                    p.index().language().name().toLowerCase(Locale.ROOT), p.mode().wireName(), p.rerankDescription(),
                    p.corpus().version());
        }
    }
}
