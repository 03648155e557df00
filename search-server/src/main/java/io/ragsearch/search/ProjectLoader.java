package io.ragsearch.search;

import io.ragsearch.config.ServerConfig.ProjectConfig;
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

    private static final Logger LOG = LoggerFactory.getLogger(ProjectLoader.class);

    private final Supplier<TextEmbedder> embedder;

    public ProjectLoader(Supplier<TextEmbedder> embedder) {
        this.embedder = embedder;
    }

    public Project load(ProjectConfig config) throws IOException {
        CorpusLoader.LoadedCorpus loaded = new CorpusLoader(config.includeAddendaOrDefault())
                .load(config.name(), Path.of(config.source().directory()));
        loaded.problems().forEach(p -> LOG.warn("project {}: {}", config.name(), p));
        var corpus = loaded.corpus();
        String lang = config.languageOrDefault().toLowerCase(Locale.ROOT);
        Language language = lang.equals("auto") ? Language.detect(corpus) : Language.parse(lang);

        RetrievalMode requested = RetrievalMode.parse(config.retrievalOrDefault());
        RetrievalMode mode = requested;
        String reason;
        if (requested == RetrievalMode.LEXICAL) {
            reason = "configured";
        } else {
            TokenizerFit fit = TokenizerFit.measure(embedder.get().tokenizer(), corpus);
            String fitText = String.format(Locale.ROOT, "the embedding model %s cannot represent %.0f%% of %d sampled words",
                    embedder.get().name(), fit.uncoveredShare() * 100, fit.wordsSampled());
            boolean poorFit = fit.uncoveredShare() > MAX_UNCOVERED_FOR_VECTORS;
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
        return new Project(config.name(), config.descriptionOrDefault(), corpus, index, mode, reason,
                new RelevanceGate(config.thresholdOrDefault()), loaded.problems());
    }
}
