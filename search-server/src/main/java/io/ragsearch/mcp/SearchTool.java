package io.ragsearch.mcp;

import static io.ragsearch.mcp.Schemas.array;
import static io.ragsearch.mcp.Schemas.bool;
import static io.ragsearch.mcp.Schemas.closedObject;
import static io.ragsearch.mcp.Schemas.integer;
import static io.ragsearch.mcp.Schemas.number;
import static io.ragsearch.mcp.Schemas.object;
import static io.ragsearch.mcp.Schemas.props;
import static io.ragsearch.mcp.Schemas.string;

import io.ragsearch.metrics.Metrics;
import io.ragsearch.search.Project;
import io.ragsearch.search.ProjectCatalog;
import io.ragsearch.search.SearchHit;
import io.ragsearch.search.SearchResponse;
import io.ragsearch.search.SearchService;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code search}: the articles of a project that answer a question, or none when the relevance
 * gate finds no support. The one tool whose calls may rerank ({@link #reranks}).
 */
final class SearchTool {

    private final ProjectCatalog catalog;
    private final SearchService search;
    private final ProjectCalls calls;
    private final Metrics metrics;
    private final Metrics.Histogram seconds;

    SearchTool(ProjectCatalog catalog, SearchService search, ProjectCalls calls, Metrics metrics) {
        this.catalog = catalog;
        this.search = search;
        this.calls = calls;
        this.metrics = metrics;
        this.seconds = metrics.histogram("ragsearch_search_seconds",
                "Search latency on a tool thread: retrieval, rerank (with its wait) and gate", Metrics.LATENCY_BUCKETS);
    }

    /** The arguments; {@code topK} null: the server's default. */
    record Args(String project, String query, Integer topK) {
        static Args of(Map<String, Object> args) {
            return new Args(ToolArguments.requiredString(args, "project"), ToolArguments.requiredString(args, "query"),
                    ToolArguments.optionalInt(args, "top_k"));
        }
    }

    ToolDefinition definition() {
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
                .reranks(this::reranks);
        return tool.body((arguments, caller) -> {
            long t0 = System.nanoTime();
            try {
                Args args = Args.of(arguments);
                Project project = calls.counted(catalog.get(args.project(), caller.scope()), caller);
                SearchResponse response = search.search(project.name(), args.query(), args.topK());
                SearchResponse shown = capTitles(response);
                if (!response.gate().passed()) {
                    refusals(response.project()).inc();
                }
                return ToolResults.success(text(shown), shown);
            } finally {
                seconds.observe((System.nanoTime() - t0) / 1e9);
            }
        });
    }

    /** A search of a known project that has a reranker (anything else fails fast on the general lane). */
    private boolean reranks(Map<String, Object> args) {
        Object project = args.get("project");
        return project instanceof String name && catalog.contains(name) && catalog.get(name).reranker() != null;
    }

    /** "No supporting documents" answers, per project: a tool success, but the number to watch for a corpus gap. */
    private Metrics.Counter refusals(String project) {
        return metrics.counter("ragsearch_search_refusals_total",
                "Searches answered \"no supporting documents\" (the relevance gate refused), by project",
                "project=\"" + Metrics.labelValue(project) + "\"");
    }

    /** The answer with its document and article titles cut ({@link Titles}); hit texts are cut by the search. */
    static SearchResponse capTitles(SearchResponse r) {
        List<SearchHit> hits = r.results().stream().map(h -> new SearchHit(h.document(), Titles.cap(h.documentTitle()), h.article(),
                Titles.cap(h.title()), h.score(), h.text())).toList();
        return new SearchResponse(r.project(), r.query(), r.retrieval(), r.reranker(), hits, r.gate());
    }

    static String text(SearchResponse r) {
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
}
