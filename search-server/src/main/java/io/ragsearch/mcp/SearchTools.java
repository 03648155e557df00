package io.ragsearch.mcp;

import static io.ragsearch.mcp.Schemas.array;
import static io.ragsearch.mcp.Schemas.bool;
import static io.ragsearch.mcp.Schemas.closedObject;
import static io.ragsearch.mcp.Schemas.integer;
import static io.ragsearch.mcp.Schemas.number;
import static io.ragsearch.mcp.Schemas.object;
import static io.ragsearch.mcp.Schemas.props;
import static io.ragsearch.mcp.Schemas.string;

import io.ragsearch.auth.Caller;
import io.ragsearch.metrics.Metrics;
import io.ragsearch.corpus.Article;
import io.ragsearch.corpus.Document;
import io.ragsearch.search.InvalidRequestException;
import io.ragsearch.search.MessageText;
import io.ragsearch.search.NotFoundException;
import io.ragsearch.search.Project;
import io.ragsearch.search.ProjectCatalog;
import io.ragsearch.search.SearchHit;
import io.ragsearch.search.SearchResponse;
import io.ragsearch.search.SearchService;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * The four read-only MCP tools over the project catalog, defined once for both protocol
 * revisions ({@link ToolDefinition}); {@link ToolCatalog} runs them.
 */
public final class SearchTools {

    /** Longer than any real statute or article title; the full title stays in the corpus file. */
    static final int MAX_TITLE_CHARS = 300;

    private final ProjectCatalog catalog;
    private final SearchService search;
    private final Metrics metrics;
    private final Metrics.Histogram searchSeconds;

    public SearchTools(ProjectCatalog catalog, SearchService search, Metrics metrics) {
        this.catalog = catalog;
        this.search = search;
        this.metrics = metrics;
        this.searchSeconds = metrics.histogram("ragsearch_search_seconds",
                "Search latency on a tool thread: retrieval, rerank (with its wait) and gate", Metrics.LATENCY_BUCKETS);
    }

    public List<ToolDefinition> definitions() {
        return List.of(listProjects(), searchTool(), listDocuments(), readArticle());
    }

    private ToolDefinition listProjects() {
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
                .outputSchema(object(props("projects", array(project)), List.of("projects")))
                .hints(readOnly("List document projects"));
        return tool.body((args, caller) -> {
            List<ProjectSummary> projects = catalog.all(caller.scope()).stream().map(ProjectSummary::of).toList();
            StringBuilder text = new StringBuilder(projects.size() + " project(s):\n");
            for (ProjectSummary p : projects) {
                text.append("- ").append(p.name()).append(": ").append(p.description().isEmpty() ? "(no description)" : p.description())
                        .append(" [").append(p.documents()).append(" documents, ").append(p.articles()).append(" articles, ")
                        .append(p.retrieval()).append("]\n");
            }
            return ToolResults.success(text.toString(), Map.of("projects", projects));
        });
    }

    private ToolDefinition searchTool() {
        int maxK = search.limits().maxTopK();
        Map<String, Object> hit = object(props(
                "document", string("document id (use with read_article)"),
                "documentTitle", string("document title"),
                "article", string("article label exactly as written, e.g. 제18조 or Article 4"),
                "title", string("article title"),
                "score", number("relevance in [0, 1]"),
                "text", string("article text (long articles are cut; read_article returns all)")),
                List.of("document", "article", "title", "score", "text"));
        Map<String, Object> gate = object(props(
                "passed", bool("false means no supporting documents were found"),
                "bestScore", number("relevance of the best candidate: the evidence the gate judged"),
                "threshold", number("best relevance a query needs for results to be returned")),
                List.of("passed", "bestScore", "threshold"));
        ToolSpec tool = new ToolSpec("search", "Search articles")
                .description("Finds the articles of a project that answer a question (Korean or English). "
                        + "Returns the supporting articles with document id and article label, or no results when "
                        + "nothing in the project supports an answer (see gate). Query: at most "
                        + search.limits().maxQueryChars() + " characters.")
                .inputSchema(closedObject(props(
                        "project", string("project name, from list_projects"),
                        "query", string("the question or keywords"),
                        "top_k", integer("how many articles to return (default " + search.limits().defaultTopK() + ")", 1, maxK)),
                        List.of("project", "query")))
                .outputSchema(object(props(
                        "project", string("project searched"),
                        "query", string("the query as searched"),
                        "retrieval", string("retrieval mode used"),
                        "reranker", string("reranker applied: none, a cross-encoder, or the cost stand-in (order unchanged)"),
                        "results", array(hit),
                        "gate", gate), List.of("project", "query", "results", "gate")))
                .hints(readOnly("Search articles"))
                .reranks(this::reranks);
        return tool.body((args, caller) -> {
            long t0 = System.nanoTime();
            try {
                Project project = used(catalog.get(requiredString(args, "project"), caller.scope()), caller);
                SearchResponse response = search.search(project.name(), requiredString(args, "query"), optionalInt(args, "top_k"));
                SearchResponse shown = capTitles(response);
                if (!response.gate().passed()) {
                    refusals(response.project()).inc();
                }
                return ToolResults.success(render(shown), shown);
            } finally {
                searchSeconds.observe((System.nanoTime() - t0) / 1e9);
            }
        });
    }

    private ToolDefinition listDocuments() {
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
                        List.of("project", "documents")))
                .hints(readOnly("List documents of a project"));
        return tool.body((args, caller) -> {
            Project project = used(catalog.get(requiredString(args, "project"), caller.scope()), caller);
            Object cursor = args.get("cursor");
            DocumentPages.Page page = DocumentPages.page(project.corpus(), (String) cursor, optionalInt(args, "limit"));
            List<DocumentSummary> docs = page.documents().stream()
                    .map(d -> new DocumentSummary(d.id(), cap(d.title()), d.articles().size())).toList();
            StringBuilder text = new StringBuilder(docs.size() + " of " + page.total() + " document(s) in " + project.name() + ":\n");
            docs.forEach(d -> text.append("- ").append(d.id()).append(": ").append(d.title())
                    .append(" (").append(d.articles()).append(" articles)\n"));
            Map<String, Object> structured = new java.util.LinkedHashMap<>();
            structured.put("project", project.name());
            structured.put("documents", docs);
            structured.put("total", page.total());
            if (page.nextCursor() != null) {
                structured.put("nextCursor", page.nextCursor());
                text.append("more: call again with cursor ").append(page.nextCursor()).append('\n');
            }
            return ToolResults.success(text.toString(), structured);
        });
    }

    private ToolDefinition readArticle() {
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
                        "text", string("article text")), List.of("project", "document", "article", "title", "deleted", "text")))
                .hints(readOnly("Read one article"));
        return tool.body((args, caller) -> {
            Project project = used(catalog.get(requiredString(args, "project"), caller.scope()), caller);
            Document doc = project.document(requiredString(args, "document"));
            String label = requiredString(args, "article");
            Article article = doc.article(label).orElseThrow(() -> new NotFoundException(
                    "unknown article " + MessageText.quoted(label) + " in document '" + doc.id() + "'; articles: "
                            + MessageText.listed(doc.articles().stream().map(Article::label).toList())));
            ArticleText body = new ArticleText(project.name(), doc.id(), cap(doc.title()), article.label(), cap(article.title()),
                    article.deleted(), article.body());
            String heading = body.documentTitle() + " " + article.label() + (body.title().isEmpty() ? "" : " (" + body.title() + ")");
            return ToolResults.success(heading + (article.deleted() ? " [deleted]" : "") + "\n\n" + article.body(), body);
        });
    }

    /** A search of a known project that has a reranker (anything else fails fast on the general lane). */
    private boolean reranks(Map<String, Object> args) {
        Object project = args.get("project");
        return project instanceof String name && catalog.contains(name) && catalog.get(name).reranker() != null;
    }

    private static ToolDefinition.Hints readOnly(String title) {
        return ToolDefinition.Hints.readOnly(title);
    }

    /** Collects a definition's parts in the order the code reads best. */
    private static final class ToolSpec {
        private final String name;
        private final String title;
        private String description;
        private Map<String, Object> input;
        private Map<String, Object> output;
        private ToolDefinition.Hints hints;
        private Predicate<Map<String, Object>> reranks = ToolDefinition.NEVER_RERANKS;

        ToolSpec(String name, String title) {
            this.name = name;
            this.title = title;
        }

        ToolSpec description(String d) {
            description = d;
            return this;
        }

        ToolSpec inputSchema(Map<String, Object> s) {
            input = s;
            return this;
        }

        ToolSpec outputSchema(Map<String, Object> s) {
            output = s;
            return this;
        }

        ToolSpec hints(ToolDefinition.Hints h) {
            hints = h;
            return this;
        }

        /** Which calls run in the rerank lane (none unless said). */
        ToolSpec reranks(Predicate<Map<String, Object>> r) {
            reranks = r;
            return this;
        }

        ToolDefinition body(BiFunction<Map<String, Object>, Caller, ToolOutcome> body) {
            return new ToolDefinition(name, title, description, input, output, hints, body, reranks);
        }
    }

    /**
     * Counts a call that reached a project, by project and caller. Only projects that exist and are
     * the caller's get here, and subjects are the identities the access rules admit: the label sets stay bounded.
     */
    private Project used(Project project, Caller caller) {
        metrics.counter("ragsearch_project_calls_total", "Tool calls that reached a project, by project and caller (the token's subject)",
                "project=\"" + Metrics.labelValue(project.name()) + "\",subject=\"" + Metrics.labelValue(caller.subject()) + "\"").inc();
        return project;
    }

    /** "No supporting documents" answers, per project: a tool success, but the number to watch for a corpus gap. */
    private Metrics.Counter refusals(String project) {
        return metrics.counter("ragsearch_search_refusals_total",
                "Searches answered \"no supporting documents\" (the relevance gate refused), by project",
                "project=\"" + Metrics.labelValue(project) + "\"");
    }

    /**
     * Titles come from the corpus (a heading line can be any length); answers carry them cut, as
     * hit texts already are, so one odd file cannot make an answer of hundreds of kilobytes.
     */
    static SearchResponse capTitles(SearchResponse r) {
        List<SearchHit> hits = r.results().stream().map(h -> new SearchHit(h.document(), cap(h.documentTitle()), h.article(),
                cap(h.title()), h.score(), h.text())).toList();
        return new SearchResponse(r.project(), r.query(), r.retrieval(), r.reranker(), hits, r.gate());
    }

    private static String cap(String title) {
        return title.length() <= MAX_TITLE_CHARS ? title : title.substring(0, MAX_TITLE_CHARS) + "…";
    }

    static String render(SearchResponse r) {
        StringBuilder text = new StringBuilder();
        if (!r.gate().passed()) {
            return text.append(String.format(Locale.ROOT,
                    "No supporting documents in project '%s' for this query (best relevance %.3f, threshold %.3f).",
                    r.project(), r.gate().bestScore(), r.gate().threshold())).toString();
        }
        text.append(r.results().size()).append(" supporting article(s) in project '").append(r.project()).append("':\n");
        int i = 1;
        for (SearchHit h : r.results()) {
            text.append(String.format(Locale.ROOT, "%n%d. %s %s%s (document %s, relevance %.3f)%n%s%n", i++,
                    h.documentTitle(), h.article(), h.title().isEmpty() || h.title().equals(h.article()) ? "" : " (" + h.title() + ")",
                    h.document(), h.score(), h.text()));
        }
        return text.toString();
    }

    private static String requiredString(Map<String, Object> args, String name) {
        Object v = args.get(name);
        if (!(v instanceof String s)) {
            throw new InvalidRequestException("argument '" + name + "' is required and must be a string");
        }
        return s;
    }

    private static Integer optionalInt(Map<String, Object> args, String name) {
        Object v = args.get(name);
        if (v == null) {
            return null;
        }
        if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) {
            return n.intValue();
        }
        throw new InvalidRequestException("argument '" + name + "' must be a whole number");
    }

    record ProjectSummary(String name, String description, int documents, int articles, String language,
                          String retrieval, String rerank, String corpusVersion) {
        static ProjectSummary of(Project p) {
            return new ProjectSummary(p.name(), p.description(), p.corpus().documents().size(), p.corpus().articleCount(),
                    p.index().language().name().toLowerCase(Locale.ROOT), p.mode().wireName(), p.rerankDescription(),
                    p.corpus().version());
        }
    }

    record DocumentSummary(String id, String title, int articles) {
    }

    record ArticleText(String project, String document, String documentTitle, String article, String title,
                       boolean deleted, String text) {
    }
}
