package io.ragsearch.refresh;

import io.ragsearch.embed.TextEmbedder;
import io.ragsearch.embed.VectorCheck;
import io.ragsearch.index.IndexBuilder;
import io.ragsearch.index.Language;
import io.ragsearch.index.ProjectIndex;
import io.ragsearch.rerank.Reranker;
import io.ragsearch.rerank.RerankerModel;
import io.ragsearch.search.CosineEvidence;
import io.ragsearch.search.Project;
import io.ragsearch.search.ProjectSettings;
import io.ragsearch.search.RetrievalMode;
import io.ragsearch.store.StoredProject;
import java.io.IOException;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A servable project from the corpus record: its stored embeddings are used as they are (nothing
 * is re-embedded at startup). Embeddings from another model than this server's are refused.
 */
public final class StoredProjectLoader {

    private static final Logger LOG = LoggerFactory.getLogger(StoredProjectLoader.class);

    private final Supplier<TextEmbedder> embedder;
    private final Function<RerankerModel, Reranker> rerankers;

    /**
     * @param embedder  this server's embedding model, asked for only when the project stores embeddings
     * @param rerankers builds (or shares) the reranker a project names
     */
    public StoredProjectLoader(Supplier<TextEmbedder> embedder, Function<RerankerModel, Reranker> rerankers) {
        this.embedder = embedder;
        this.rerankers = rerankers;
    }

    /** @param settings the project's settings: its configuration entry, or {@link ProjectSettings#defaults} */
    public Project load(StoredProject stored, ProjectSettings settings) throws IOException {
        var corpus = stored.corpus();
        stored.problems().forEach(p -> LOG.warn("project {}: {}", stored.name(), p));
        Language language = settings.retrieval().languageFor(corpus);
        RetrievalMode requested = settings.retrieval().mode();
        float[][] vectors = stored.vectors();
        RetrievalMode mode;
        String reason;
        if (vectors == null) {
            if (requested.usesVectors()) {
                throw new IOException("project '" + stored.name() + "' asks for " + requested.wireName()
                        + " retrieval but the database stores no embeddings for it: ingest it with embeddings");
            }
            mode = RetrievalMode.LEXICAL;
            reason = requested == RetrievalMode.AUTO ? "auto: no embeddings stored" : "configured";
        } else {
            TextEmbedder e = embedder.get();
            if (!e.digest().equals(stored.embeddingDigest())) {
                throw new IOException("project '" + stored.name() + "' stores embeddings of " + stored.embeddingModel() + " ("
                        + stored.embeddingDigest() + ") but this server embeds queries with " + e.name() + " (" + e.digest()
                        + "): re-run ingest with this server's model, or configure the stored one");
            }
            // The digest says who wrote the rows, not that they hold vectors: one NaN would make every cosine NaN.
            var unusable = VectorCheck.firstProblem(vectors, e.dimension(), e.settings().normalize());
            if (unusable.isPresent()) {
                LOG.warn("project {}: stored embeddings not used ({}); serving it lexical until it is re-ingested", stored.name(),
                        unusable.get());
                mode = RetrievalMode.LEXICAL;
                reason = "stored embeddings fail their check (" + unusable.get() + "): re-run ingest";
            } else {
                mode = requested == RetrievalMode.AUTO ? RetrievalMode.HYBRID : requested;
                reason = requested == RetrievalMode.AUTO ? "auto: embeddings stored by " + stored.embeddingModel() : "configured";
            }
        }
        ProjectIndex index = IndexBuilder.build(corpus, language, null, mode.usesVectors() ? vectors : null);
        Reranker reranker = settings.reranker().map(rerankers).orElse(null);
        String description = !settings.description().isEmpty() ? settings.description() : stored.description();
        LOG.info("project {} from the database: corpus version {}, {} documents, {} articles, retrieval {} ({})", stored.name(),
                stored.version(), corpus.documents().size(), corpus.articleCount(), mode.wireName(), reason);
        CosineEvidence evidence = CosineEvidence.forProject(mode, language, embedder);
        return new Project(stored.name(), description, corpus, index, mode, reason,
                settings.retrieval().gate(mode, reranker != null && reranker.trained(), evidence), stored.problems(), reranker, evidence);
    }
}
