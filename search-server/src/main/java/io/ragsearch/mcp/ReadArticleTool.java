package io.ragsearch.mcp;

import static io.ragsearch.mcp.Schemas.bool;
import static io.ragsearch.mcp.Schemas.closedObject;
import static io.ragsearch.mcp.Schemas.object;
import static io.ragsearch.mcp.Schemas.props;
import static io.ragsearch.mcp.Schemas.string;

import io.ragsearch.corpus.Article;
import io.ragsearch.corpus.Document;
import io.ragsearch.search.MessageText;
import io.ragsearch.search.NotFoundException;
import io.ragsearch.search.Project;
import io.ragsearch.search.ProjectCatalog;
import java.util.List;
import java.util.Map;

/** {@code read_article}: the full text of one article, by document id and article label. */
final class ReadArticleTool {

    private final ProjectCatalog catalog;
    private final ProjectCalls calls;

    ReadArticleTool(ProjectCatalog catalog, ProjectCalls calls) {
        this.catalog = catalog;
        this.calls = calls;
    }

    record Args(String project, String document, String article) {
        static Args of(Map<String, Object> args) {
            return new Args(ToolArguments.requiredString(args, "project"), ToolArguments.requiredString(args, "document"),
                    ToolArguments.requiredString(args, "article"));
        }
    }

    ToolDefinition definition() {
        ToolSpec tool = new ToolSpec("read_article", "Read one article")
                .description("Returns the full text of one article, by document id and article label (e.g. 제18조, 제76조의3, Article 4).")
                .inputSchema(closedObject(props(
                        "project", string("project name"),
                        "document", string("document id, from list_documents or search"),
                        "article", string("article label, e.g. 제18조")), List.of("project", "document", "article")))
                .outputSchema(object(props(
                        "project", string("project name"),
                        "document", string("document id"),
                        "documentTitle", string("document title"),
                        "article", string("article label"),
                        "title", string("article title"),
                        "deleted", bool("true when the article was deleted (삭제); it is then not evidence"),
                        "text", string("article text")), List.of("project", "document", "article", "title", "deleted", "text")));
        return tool.body((arguments, caller) -> {
            Args args = Args.of(arguments);
            Project project = calls.counted(catalog.get(args.project(), caller.scope()), caller);
            Document doc = project.document(args.document());
            ArticleText body = ArticleText.of(project.name(), doc, article(doc, args.article()));
            return ToolResults.success(text(body), body);
        });
    }

    /** The article under this label, or the one not-found answer that lists the document's labels. */
    static Article article(Document doc, String label) {
        return doc.article(label).orElseThrow(() -> new NotFoundException(
                "unknown article " + MessageText.quoted(label) + " in document '" + doc.id() + "'; articles: "
                        + MessageText.listed(doc.articles().stream().map(Article::label).toList())));
    }

    static String text(ArticleText a) {
        String heading = a.documentTitle() + " " + a.article() + (a.title().isEmpty() ? "" : " (" + a.title() + ")");
        return heading + (a.deleted() ? " [deleted]" : "") + "\n\n" + a.text();
    }

    /** The answer's structured content: titles cut ({@link Titles}), the text whole. */
    record ArticleText(String project, String document, String documentTitle, String article, String title,
                       boolean deleted, String text) {
        static ArticleText of(String project, Document doc, Article article) {
            return new ArticleText(project, doc.id(), Titles.cap(doc.title()), article.label(), Titles.cap(article.title()),
                    article.deleted(), article.body());
        }
    }
}
