package io.ragsearch.server;

import io.ragsearch.admin.HealthState;
import io.ragsearch.embed.TextEmbedder;
import io.ragsearch.refresh.DatabaseSync;
import io.ragsearch.search.Project;
import io.ragsearch.search.ProjectCatalog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/** What /info shows: version, startup state, models, rerank concurrency, every project and the database. */
final class ServerInfo {

    private final HealthState health;
    private final EmbeddingModelHolder embeddingModel;
    private final RerankerCache rerankers;
    private final ProjectCatalog catalog;
    private final int rerankConcurrency;
    private final Supplier<Optional<DatabaseSync>> databaseSync;
    private final Supplier<Optional<Object>> embedding;

    /** @param articleEmbedding the start's article embedding progress, when it had any to do */
    ServerInfo(HealthState health, ModelParts models, ProjectCatalog catalog, Supplier<Optional<DatabaseSync>> databaseSync,
               Supplier<Optional<Object>> articleEmbedding) {
        this.embedding = articleEmbedding;
        this.health = health;
        this.embeddingModel = models.embedding();
        this.rerankers = models.rerankers();
        this.rerankConcurrency = models.rerankConcurrency();
        this.catalog = catalog;
        this.databaseSync = databaseSync;
    }

    /** The model parts /info describes. */
    record ModelParts(EmbeddingModelHolder embedding, RerankerCache rerankers, int rerankConcurrency) {
    }

    Map<String, Object> describe() {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("version", Version.current());
        info.put("status", health.started() ? "started" : health.startupPhase());
        List<Map<String, Object>> models = new ArrayList<>();
        Optional<TextEmbedder> loaded = embeddingModel.loaded();
        if (loaded.isPresent()) {
            TextEmbedder e = loaded.get();
            models.add(Map.of("role", "embedding", "name", e.name(), "digest", e.digest(), "dimension", e.dimension(),
                    "loaded", true, "output", e.output(), "pooling", e.settings().pooling().wireName(),
                    "normalize", e.settings().normalize(), "maxSeqLen", e.settings().maxSeqLen()));
        } else {
            models.add(Map.of("role", "embedding", "name", embeddingModel.model().describe(), "loaded", false,
                    "why", "no project uses a vector leg"));
        }
        rerankers.all().forEach(r -> models.add(Map.of("role", "reranker", "name", r.name(), "digest", r.digest(),
                "trained", r.trained(), "maxSeqLen", r.maxSeqLen(), "scoreMapping", r.scoreMapping())));
        info.put("models", models);
        info.put("rerankConcurrency", rerankConcurrency);
        List<Map<String, Object>> projects = new ArrayList<>();
        for (Project p : catalog.all()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", p.name());
            m.put("documents", p.corpus().documents().size());
            m.put("articles", p.corpus().articleCount());
            m.put("corpusVersion", p.corpus().version());
            m.put("language", p.index().language().name().toLowerCase(Locale.ROOT));
            m.put("retrieval", p.mode().wireName());
            m.put("retrievalReason", p.modeReason());
            m.put("gateThreshold", p.gate().threshold());
            m.put("rerank", p.rerankDescription());
            m.put("loadProblems", p.loadProblems());
            projects.add(m);
        }
        info.put("projects", projects);
        embedding.get().ifPresent(progress -> info.put("embedding", progress));
        databaseSync.get().ifPresent(sync -> info.put("database", sync.describe()));
        return info;
    }
}
