package io.ragsearch.search;

import io.ragsearch.rerank.Reranker;
import io.ragsearch.rerank.RerankerModel;
import java.util.function.Function;
import io.ragsearch.corpus.CorpusLoader;
import io.ragsearch.index.IndexBuilder;
import io.ragsearch.index.Language;
import io.ragsearch.index.ProjectIndex;
import io.ragsearch.index.TokenizerFit;
import io.ragsearch.index.VectorGraphStore;
import io.ragsearch.index.VectorIndex;
import io.ragsearch.index.VectorSearchSettings;
import io.ragsearch.embed.TextEmbedder;
import io.ragsearch.embed.TextTokenizer;
import io.ragsearch.corpus.Corpus;
import io.ragsearch.embed.ChunkedEmbedding;
import io.ragsearch.embed.EmbeddingProgress;
import io.ragsearch.embed.VectorCache;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Loads a project's corpus, chooses its analyzer and retrieval mode, and builds its index. */
public final class ProjectLoader {

    /**
     * Above this share of words the embedding model cannot represent, its vectors rank by
     * noise: AUTO drops the vector leg. MiniLM leaves almost no English word uncovered and
     * nearly every Korean word (it knows no Hangul syllables).
     */
    static final double MAX_UNCOVERED_FOR_VECTORS = 0.3;

    /** Whether the embedding model represents enough of a corpus for its vectors to mean something. */
    public static boolean suitsVectors(TokenizerFit fit) {
        return fit.uncoveredShare() <= MAX_UNCOVERED_FOR_VECTORS;
    }

    private static final Logger LOG = LoggerFactory.getLogger(ProjectLoader.class);

    /** The vector cache's subdirectory holding persisted HNSW graphs ({@link VectorGraphStore}). */
    static final String GRAPHS = "graphs";

    private final Supplier<EmbeddingTokenizer> tokenizer;
    private final Supplier<TextEmbedder> embedder;
    private final Function<RerankerModel, Reranker> rerankers;
    private final Optional<VectorCache> vectorCache;
    private final AtomicInteger lexicalBuilds = new AtomicInteger();

    /**
     * @param tokenizer the embedding model's tokenizer and name, for judging whether a corpus
     *                  suits the model (cheap: no model load)
     * @param embedder  the embedding model itself, asked for only when a vector leg is on
     */
    public ProjectLoader(Supplier<EmbeddingTokenizer> tokenizer, Supplier<TextEmbedder> embedder) {
        this(tokenizer, embedder, ref -> {
            throw new IllegalStateException("no rerankers in this context");
        });
    }

    /** @param rerankers builds (or shares) the reranker a project names */
    public ProjectLoader(Supplier<EmbeddingTokenizer> tokenizer, Supplier<TextEmbedder> embedder,
                         Function<RerankerModel, Reranker> rerankers) {
        this(tokenizer, embedder, rerankers, Optional.empty());
    }

    /** @param vectorCache where passage vectors are kept between starts (empty: embedded at every load) */
    public ProjectLoader(Supplier<EmbeddingTokenizer> tokenizer, Supplier<TextEmbedder> embedder,
                         Function<RerankerModel, Reranker> rerankers, Optional<VectorCache> vectorCache) {
        this.tokenizer = tokenizer;
        this.embedder = embedder;
        this.rerankers = rerankers;
        this.vectorCache = vectorCache;
    }

    /** The live articles' vectors, from the cache where it holds them, reported to {@code progress} a chunk at a time. */
    private float[][] vectors(String project, Corpus corpus, EmbeddingProgress progress) {
        TextEmbedder e = embedder.get();
        List<String> texts = IndexBuilder.embeddingTexts(corpus);
        long t0 = System.nanoTime();
        progress.project(project);
        if (vectorCache.isEmpty()) {
            float[][] out = new float[texts.size()][];
            ChunkedEmbedding.embed(e, texts, ChunkedEmbedding.all(texts.size()), out, progress, chunk -> { });
            return out;
        }
        VectorCache.Outcome outcome = vectorCache.get().passages(e, project, texts, progress);
        LOG.info("project {}: {} article vectors from the cache, {} embedded in {} ms ({})", project, outcome.reused(),
                outcome.embedded(), (System.nanoTime() - t0) / 1_000_000, vectorCache.get().root());
        return outcome.vectors();
    }

    /** An embedding model's tokenizer with the model's name, for messages. */
    public record EmbeddingTokenizer(String modelName, TextTokenizer tokenizer) {
    }

    /**
     * A directory project whose corpus is loaded and whose language and retrieval mode are
     * chosen, its index not built yet: {@link #complete} builds it with its vectors,
     * {@link #lexicalFirst} without them.
     */
    public record Prepared(ProjectSettings settings, CorpusLoader.LoadedCorpus loaded, Language language, RetrievalMode mode,
                           String reason) {

        /** Whether the project's index needs article vectors (the slow part of a first start). */
        public boolean needsVectors() {
            return mode.usesVectors();
        }

        /** The texts whose vectors {@link #complete} needs: what a progress counts. */
        public List<String> embeddingTexts() {
            return needsVectors() ? IndexBuilder.embeddingTexts(loaded.corpus()) : List.of();
        }
    }

    /** A directory project: its corpus loaded, its language and retrieval mode chosen, its index built. */
    public Project load(ProjectSettings config) throws IOException {
        return complete(prepare(config), new EmbeddingProgress());
    }

    /** The corpus loaded, the language and retrieval mode chosen; no index, nothing embedded. */
    public Prepared prepare(ProjectSettings config) throws IOException {
        ProjectSettings.DirectorySource source = config.directory()
                .orElseThrow(() -> new IllegalArgumentException("project '" + config.name() + "' has no directory"));
        CorpusLoader.LoadedCorpus loaded = new CorpusLoader(source.includeAddenda(), source.include())
                .load(config.name(), source.directory());
        loaded.problems().forEach(p -> LOG.warn("project {}: {}", config.name(), p));
        var corpus = loaded.corpus();
        Language language = config.retrieval().languageFor(corpus);

        RetrievalMode requested = config.retrieval().mode();
        RetrievalMode mode = requested;
        String reason;
        if (requested == RetrievalMode.LEXICAL) {
            reason = "configured";
        } else {
            EmbeddingTokenizer t = tokenizer.get();
            TokenizerFit fit = TokenizerFit.measure(t.tokenizer(), corpus);
            String fitText = String.format(Locale.ROOT, "the embedding model %s cannot represent %.0f%% of %d sampled words",
                    t.modelName(), fit.uncoveredShare() * 100, fit.wordsSampled());
            boolean poorFit = !suitsVectors(fit);
            if (requested == RetrievalMode.AUTO) {
                mode = poorFit ? RetrievalMode.LEXICAL : RetrievalMode.HYBRID;
                reason = (poorFit ? "auto: vector leg off, " : "auto: vector leg on, ") + fitText;
            } else {
                reason = "configured; " + fitText;
                if (poorFit) {
                    LOG.warn("project {}: retrieval {} requested although {}", config.name(), requested.wireName(), fitText);
                }
            }
        }
        LOG.info("project {}: {} documents, {} articles, language {}, retrieval {} ({})", config.name(),
                corpus.documents().size(), corpus.articleCount(), language.name().toLowerCase(Locale.ROOT),
                mode.wireName(), reason);
        return new Prepared(config, loaded, language, mode, reason);
    }

    /**
     * The project as configured, its vectors read from the cache or embedded (reported to
     * {@code progress}, which the caller has told {@link Prepared#embeddingTexts()} to expect).
     */
    public Project complete(Prepared p, EmbeddingProgress progress) throws IOException {
        return complete(p, null, progress);
    }

    /**
     * As {@link #complete(Prepared, EmbeddingProgress)}, on the lexical index {@link #lexicalFirst}
     * built for the same {@code p} (null: built here): its Lucene index is not built again, it
     * gains the vectors. The lexical-first project keeps working until the caller replaces it.
     */
    public Project complete(Prepared p, ProjectIndex lexical, EmbeddingProgress progress) throws IOException {
        if (lexical != null && lexical.hasVectors()) {
            throw new IllegalArgumentException("project " + p.settings().name() + ": the index to complete already has its vectors");
        }
        float[][] vectors = p.needsVectors() ? vectors(p.settings().name(), p.loaded().corpus(), progress) : null;
        ProjectIndex base = lexical != null ? lexical : lexicalIndex(p);
        if (vectors == null) {
            return project(p, p.mode(), p.reason(), base);
        }
        try {
            if (vectors.length != base.size()) {
                // Checked before a graph is built: a graph over the wrong vectors is minutes lost.
                throw new IOException("project " + p.settings().name() + ": " + vectors.length + " vectors for " + base.size()
                        + " live articles (not this corpus's lexical index?)");
            }
            return project(p, p.mode(), p.reason(), base.withVectors(vectorIndex(p.settings().name(), vectors)));
        } finally {
            if (base != lexical) {
                // Built here only as a step: the index returned holds the lexical side now.
                base.close();
            }
        }
    }

    /** A large project's HNSW graph is kept beside the vector cache and reopened at the next start. */
    private VectorIndex vectorIndex(String project, float[][] vectors) throws IOException {
        return vectorCache.isPresent()
                ? new VectorGraphStore(vectorCache.get().root().resolve(GRAPHS)).index(project, vectors, VectorSearchSettings.DEFAULTS)
                : VectorIndex.of(vectors, VectorSearchSettings.DEFAULTS);
    }

    private ProjectIndex lexicalIndex(Prepared p) throws IOException {
        lexicalBuilds.incrementAndGet();
        return IndexBuilder.build(p.loaded().corpus(), p.language(), null, null);
    }

    /** How many lexical indexes this loader has built: one per project per start (a test reads it). */
    public int lexicalBuilds() {
        return lexicalBuilds.get();
    }

    /**
     * Until its vectors exist, the project served by its lexical leg alone, with the lexical
     * gate, and saying so in its retrieval reason: honest lexical answers for a caller that
     * reaches the server directly while readiness keeps the Service's traffic away. Its index
     * is the one {@link #complete(Prepared, ProjectIndex, EmbeddingProgress)} completes.
     */
    public Project lexicalFirst(Prepared p) throws IOException {
        String reason = "lexical until its article vectors are embedded, then " + p.mode().wireName() + " (" + p.reason() + ")";
        return project(p, RetrievalMode.LEXICAL, reason, lexicalIndex(p));
    }

    private Project project(Prepared p, RetrievalMode mode, String reason, ProjectIndex index) {
        ProjectSettings config = p.settings();
        Reranker reranker = config.reranker().map(rerankers).orElse(null);
        CosineEvidence evidence = CosineEvidence.forProject(mode, p.language(), embedder);
        return new Project(config.name(), config.description(), p.loaded().corpus(), index, mode, reason,
                config.retrieval().gate(mode, reranker != null && reranker.trained(), evidence), p.loaded().problems(),
                reranker, evidence);
    }
}
