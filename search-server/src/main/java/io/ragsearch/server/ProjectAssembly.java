package io.ragsearch.server;

import io.opentelemetry.api.trace.Tracer;

import io.ragsearch.embed.ModelRegistry;
import io.ragsearch.metrics.Metrics;
import io.ragsearch.refresh.DatabaseSync;
import io.ragsearch.refresh.StoredProjectLoader;
import io.ragsearch.rerank.RerankLimiter;
import io.ragsearch.search.ProjectCatalog;
import io.ragsearch.search.ProjectLoader;
import io.ragsearch.search.ProjectSettings;
import io.ragsearch.search.SearchService;
import io.ragsearch.embed.EmbeddingProgress;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The models and the project loaders both entry points build projects with: the server and the
 * query/eval commands, which load the same projects but serve nothing.
 */
final class ProjectAssembly implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ProjectAssembly.class);

    private final AppSettings settings;
    private final Consumer<String> phase;
    private final ModelRegistry registry = new ModelRegistry();
    private final EmbeddingModelHolder embedding;
    private final RerankerCache rerankers;

    /** @param phase told what is loading, for the startup probe */
    ProjectAssembly(AppSettings settings, Consumer<String> phase) {
        this.settings = settings;
        this.phase = phase;
        AppSettings.Models m = settings.models();
        this.embedding = new EmbeddingModelHolder(m.embedding(), m.embeddingSession(), registry, phase);
        this.rerankers = new RerankerCache(registry, m.rerank().session(), phase);
    }

    /** Loads every directory project into the catalog, its vectors embedded before it is put there (query, eval, stdio). */
    void loadDirectoryProjects(ProjectCatalog into) throws IOException {
        try {
            prepareDirectoryProjects(into, false).runHere();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * Loads every directory project into the catalog in its lexical form where its vectors are
     * still to be embedded (and every configured reranker: calibration measures them all), and
     * returns that embedding, not started: `serve` runs it in the background, after the startup
     * probe has passed, so a first start of any size is never killed for its length.
     */
    StartupEmbedding prepareDirectoryProjects(ProjectCatalog into) throws IOException {
        return prepareDirectoryProjects(into, true);
    }

    /** @param lexicalFirst whether a project waiting for its vectors is put in the catalog in its lexical form meanwhile */
    private StartupEmbedding prepareDirectoryProjects(ProjectCatalog into, boolean lexicalFirst) throws IOException {
        settings.projects().forEach(p -> p.reranker().ifPresent(rerankers::get));
        ProjectLoader loader = new ProjectLoader(embedding::tokenizer, embedding::embedder, rerankers::get,
                settings.models().vectorCache());
        List<StartupEmbedding.Pending> needVectors = new ArrayList<>();
        for (ProjectSettings p : settings.projects()) {
            if (p.directory().isEmpty()) {
                continue;
            }
            phase.accept("indexing project " + p.name());
            long t0 = System.nanoTime();
            ProjectLoader.Prepared prepared = loader.prepare(p);
            if (prepared.needsVectors()) {
                // Loaded now, so that embedding starts without waiting and the first query does not load it.
                embedding.embedder();
                if (lexicalFirst) {
                    // Its index is the one the vectors complete later: the lexical index is built once.
                    var lexical = loader.lexicalFirst(prepared);
                    into.put(lexical);
                    needVectors.add(new StartupEmbedding.Pending(prepared, lexical.index()));
                } else {
                    needVectors.add(new StartupEmbedding.Pending(prepared, null));
                }
            } else {
                into.put(loader.complete(prepared, new EmbeddingProgress()));
            }
            if (lexicalFirst || !prepared.needsVectors()) {
                LOG.info("project {} indexed in {} ms{}", p.name(), (System.nanoTime() - t0) / 1_000_000,
                        prepared.needsVectors() ? " (without its article vectors: they follow)" : "");
            }
        }
        return new StartupEmbedding(loader, needVectors, into);
    }

    /** The search over the catalog, with the process-wide rerank limiter (its permits are the memory bound). */
    SearchService searchService(ProjectCatalog catalog, Metrics metrics, Tracer tracer) {
        var r = settings.models().rerank();
        return new SearchService(catalog, embedding::embedder, settings.serving().limits(),
                new RerankLimiter(r.concurrency(), r.queueTimeoutMillis(), metrics, tracer), tracer);
    }

    /** Builds a database project with the settings a configured project of the same name with source {database: true} gives. */
    DatabaseSync.ProjectBuilder databaseProjects() {
        StoredProjectLoader loader = new StoredProjectLoader(embedding::embedder, rerankers::get);
        return stored -> loader.load(stored, settings.databaseProject(stored.name()).orElse(ProjectSettings.defaults(stored.name())));
    }

    EmbeddingModelHolder embedding() {
        return embedding;
    }

    RerankerCache rerankers() {
        return rerankers;
    }

    @Override
    public void close() {
        embedding.close();
        registry.close();
    }
}
