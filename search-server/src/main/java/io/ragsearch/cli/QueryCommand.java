package io.ragsearch.cli;

import io.ragsearch.config.ServerEnvironment;
import io.ragsearch.search.Project;
import io.ragsearch.search.ProjectCatalog;
import io.ragsearch.search.SearchHit;
import io.ragsearch.search.SearchResponse;
import io.ragsearch.search.SearchService;
import io.ragsearch.server.OfflineProjects;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Searches from the terminal: the same pipeline as the search tool, printed for a person. */
@Command(name = "query", mixinStandardHelpOptions = true,
        description = "Print the articles that answer a question, ranked (searches every project unless --in is given).")
final class QueryCommand implements Callable<Integer> {

    @Mixin
    ProjectOptions projects;

    @Option(names = "--in", paramLabel = "NAME", description = "Search only this project.")
    String only;

    @Option(names = {"-k", "--top-k"}, paramLabel = "N", description = "Articles to show per project (default 5).")
    Integer topK;

    @Option(names = "--full", description = "Print whole articles instead of their first lines.")
    boolean full;

    @Parameters(paramLabel = "QUESTION", arity = "1..*", description = "The question or keywords.")
    List<String> words;

    @Override
    public Integer call() throws Exception {
        ProjectCatalog catalog = new ProjectCatalog();
        ServerEnvironment env = ServerEnvironment.read(System.getenv());
        SearchService search = OfflineProjects.load(projects.resolve(env), env, catalog,
                name -> only == null || only.equals(name));
        String question = String.join(" ", words);
        List<Project> targets = only == null ? List.copyOf(catalog.all()) : List.of(catalog.get(only));
        for (Project p : targets) {
            SearchResponse r = search.search(p.name(), question, topK);
            System.out.printf(Locale.ROOT, "== %s (%s): gate %s, best relevance %.3f, threshold %.3f%n", p.name(),
                    r.retrieval(), r.gate().passed() ? "passed" : "closed — no supporting documents",
                    r.gate().bestScore(), r.gate().threshold());
            int rank = 1;
            for (SearchHit h : r.results()) {
                System.out.printf(Locale.ROOT, "%2d. %.3f  %s %s%s   [%s]%n", rank++, h.score(), h.documentTitle(), h.article(),
                        h.title().isEmpty() || h.title().equals(h.article()) ? "" : " (" + h.title() + ")", h.document());
                System.out.println(indent(full ? h.text() : firstLines(h.text(), 3)));
            }
        }
        return 0;
    }

    private static String firstLines(String text, int n) {
        List<String> lines = text.lines().filter(l -> !l.isBlank()).limit(n).toList();
        return String.join("\n", lines);
    }

    private static String indent(String text) {
        return text.lines().map(l -> "      " + l).reduce((a, b) -> a + "\n" + b).orElse("");
    }
}
