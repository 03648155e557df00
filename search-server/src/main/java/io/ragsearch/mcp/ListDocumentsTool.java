package io.ragsearch.mcp;

import static io.ragsearch.mcp.Schemas.array;
import static io.ragsearch.mcp.Schemas.closedObject;
import static io.ragsearch.mcp.Schemas.integer;
import static io.ragsearch.mcp.Schemas.object;
import static io.ragsearch.mcp.Schemas.props;
import static io.ragsearch.mcp.Schemas.string;

import io.ragsearch.search.Project;
import io.ragsearch.search.ProjectCatalog;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code list_documents}: a project's documents in id order, a page at a time ({@link DocumentPages}). */
final class ListDocumentsTool {

    private final ProjectCatalog catalog;
    private final ProjectCalls calls;

    ListDocumentsTool(ProjectCatalog catalog, ProjectCalls calls) {
        this.catalog = catalog;
        this.calls = calls;
    }

    /** The arguments; {@code cursor} null: the first page, {@code limit} null: the default page size. */
    record Args(String project, String cursor, Integer limit) {
        static Args of(Map<String, Object> args) {
            return new Args(ToolArguments.requiredString(args, "project"), (String) args.get("cursor"),
                    ToolArguments.optionalInt(args, "limit"));
        }
    }

    ToolDefinition definition() {
        Map<String, Object> doc = object(props(
                "id", string("document id"),
                "title", string("document title"),
                "articles", integer("number of articles", 0, Integer.MAX_VALUE)),
                List.of("id", "title", "articles"));
        ToolSpec tool = new ToolSpec("list_documents", "List documents of a project")
                .description("Lists the documents of a project with their ids and titles, in id order, a page at a time: "
                        + "pass the answer's nextCursor as cursor for the next page (absent on the last one).")
                .inputSchema(closedObject(props(
                        "project", string("project name, from list_projects"),
                        "cursor", string("nextCursor of the previous page; none for the first page"),
                        "limit", integer("documents per page (default " + DocumentPages.DEFAULT_LIMIT + ")", 1, DocumentPages.MAX_LIMIT)),
                        List.of("project")))
                .outputSchema(object(props(
                        "project", string("project name"),
                        "documents", array(doc),
                        "total", integer("documents in the project", 0, Integer.MAX_VALUE),
                        "nextCursor", string("pass as cursor for the next page; absent on the last page")),
                        List.of("project", "documents")));
        return tool.body((arguments, caller) -> {
            Args args = Args.of(arguments);
            Project project = calls.counted(catalog.get(args.project(), caller.scope()), caller);
            DocumentPages.Page page = DocumentPages.page(project.corpus(), args.cursor(), args.limit());
            List<DocumentSummary> docs = page.documents().stream()
                    .map(d -> new DocumentSummary(d.id(), Titles.cap(d.title()), d.articles().size())).toList();
            return ToolResults.success(text(project.name(), docs, page), structured(project.name(), docs, page));
        });
    }

    static String text(String project, List<DocumentSummary> docs, DocumentPages.Page page) {
        StringBuilder text = new StringBuilder(docs.size() + " of " + page.total() + " document(s) in " + project + ":\n");
        docs.forEach(d -> text.append("- ").append(d.id()).append(": ").append(d.title())
                .append(" (").append(d.articles()).append(" articles)\n"));
        if (page.nextCursor() != null) {
            text.append("more: call again with cursor ").append(page.nextCursor()).append('\n');
        }
        return text.toString();
    }

    /** In the output schema's order; {@code nextCursor} only when there is a next page. */
    static Map<String, Object> structured(String project, List<DocumentSummary> docs, DocumentPages.Page page) {
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("project", project);
        structured.put("documents", docs);
        structured.put("total", page.total());
        if (page.nextCursor() != null) {
            structured.put("nextCursor", page.nextCursor());
        }
        return structured;
    }

    record DocumentSummary(String id, String title, int articles) {
    }
}
