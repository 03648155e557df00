package io.ragsearch.search;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import io.ragsearch.config.ServerConfig;
import io.ragsearch.config.ServerConfig.ProjectConfig;
import io.ragsearch.rerank.Reranker;
import io.ragsearch.store.StoredProject;
import java.util.function.Function;
import io.ragsearch.corpus.CorpusLoader;
import io.ragsearch.index.IndexBuilder;
import io.ragsearch.index.Language;
import io.ragsearch.index.ProjectIndex;
import io.ragsearch.index.TokenizerFit;
import io.ragsearch.embed.TextEmbedder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
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

    private final Supplier<EmbeddingTokenizer> tokenizer;
    private final Supplier<TextEmbedder> embedder;
    private final Function<ServerConfig.RerankerRef, Reranker> rerankers;

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
                         Function<ServerConfig.RerankerRef, Reranker> rerankers) {
        this.tokenizer = tokenizer;
        this.embedder = embedder;
        this.rerankers = rerankers;
    }

    /**
     * A project from the corpus record: its stored embeddings are used as they are (nothing is
     * re-embedded at startup). Embeddings from another model than this server's are refused.
     *
     * @param config the project's settings from the configuration, or null for defaults
     */
    public Project loadStored(StoredProject stored, ProjectConfig config) throws IOException {
        var corpus = stored.corpus();
        stored.problems().forEach(p -> LOG.warn("project {}: {}", stored.name(), p));
        Language language = language(config == null ? "auto" : config.languageOrDefault(), corpus);
        RetrievalMode requested = RetrievalMode.parse(config == null ? "auto" : config.retrievalOrDefault());
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
            mode = requested == RetrievalMode.AUTO ? RetrievalMode.HYBRID : requested;
            reason = requested == RetrievalMode.AUTO ? "auto: embeddings stored by " + stored.embeddingModel() : "configured";
        }
        ProjectIndex index = IndexBuilder.build(corpus, language, null, mode.usesVectors() ? vectors : null);
        Reranker reranker = config == null || config.reranker() == null ? null : rerankers.apply(config.reranker());
        String description = config != null && !config.descriptionOrDefault().isEmpty() ? config.descriptionOrDefault()
                : stored.description();
        LOG.info("project {} from the database: corpus version {}, {} documents, {} articles, retrieval {} ({})", stored.name(),
                stored.version(), corpus.documents().size(), corpus.articleCount(), mode.wireName(), reason);
        return new Project(stored.name(), description, corpus, index, mode, reason,
                RelevanceGate.of(config == null ? null : config.threshold(), mode, reranker != null && reranker.trained()),
                stored.problems(), reranker);
    }

    /** The configured analyzer language, or the detected one for "auto". */
    private static Language language(String configured, io.ragsearch.corpus.Corpus corpus) {
        String lang = configured.toLowerCase(Locale.ROOT);
        return lang.equals("auto") ? Language.detect(corpus) : Language.parse(lang);
    }

    /** An embedding model's tokenizer with the model's name, for messages. */
    public record EmbeddingTokenizer(String modelName, HuggingFaceTokenizer tokenizer) {
    }

    public Project load(ProjectConfig config) throws IOException {
        CorpusLoader.LoadedCorpus loaded = new CorpusLoader(config.includeAddendaOrDefault(), config.source().includeOrDefault())
                .load(config.name(), Path.of(config.source().directory()));
        loaded.problems().forEach(p -> LOG.warn("project {}: {}", config.name(), p));
        var corpus = loaded.corpus();
        Language language = language(config.languageOrDefault(), corpus);

        RetrievalMode requested = RetrievalMode.parse(config.retrievalOrDefault());
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
        ProjectIndex index = IndexBuilder.build(corpus, language, mode.usesVectors() ? embedder.get() : null, null);
        Reranker reranker = config.reranker() == null ? null : rerankers.apply(config.reranker());
        return new Project(config.name(), config.descriptionOrDefault(), corpus, index, mode, reason,
                RelevanceGate.of(config.threshold(), mode, reranker != null && reranker.trained()), loaded.problems(), reranker);
    }
}
