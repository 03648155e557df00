package io.ragsearch.eval;

import io.ragsearch.config.ServerEnvironment;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.search.ProjectCatalog;
import io.ragsearch.search.SearchService;
import io.ragsearch.server.OfflineProjects;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The project's question sets (eval/ at the top of the checkout) and projects loaded with the server's defaults. */
final class EvalSets {

    private EvalSets() {
    }

    static Path file(String name) {
        Path p = Path.of(System.getProperty("user.dir")).resolve("../eval").resolve(name).normalize();
        if (!Files.isRegularFile(p)) {
            throw new AssertionError("question set missing: " + p);
        }
        return p;
    }

    /** A corpus kept beside the question sets (eval/corpora/NAME). */
    static Path corpus(String name) {
        Path p = Path.of(System.getProperty("user.dir")).resolve("../eval/corpora").resolve(name).normalize();
        if (!Files.isDirectory(p)) {
            throw new AssertionError("corpus missing: " + p);
        }
        return p;
    }

    /** One project with every setting at its default, as {@code serve --project NAME=DIR} loads it. */
    static Loaded load(String name, Path directory) throws Exception {
        ServerSettings config = ServerSettings.EMPTY.withProjects(List.of(
                ServerSettings.Project.ofDirectory(name, directory.toAbsolutePath().toString()).withDescription("")));
        ProjectCatalog catalog = new ProjectCatalog();
        // The environment as the server sees it: the built-in multilingual model and the vector cache are found as `serve` finds them.
        SearchService search = OfflineProjects.load(config, ServerEnvironment.read(System.getenv()), catalog);
        return new Loaded(catalog, search);
    }

    record Loaded(ProjectCatalog catalog, SearchService search) {
    }

    static EvalSummary run(SearchBackend backend, QuestionFile set) throws Exception {
        return EvalSummary.of(set.set(), backend.name(), EvalRun.run(backend, set));
    }
}
