package io.ragsearch.search;

import io.ragsearch.corpus.Corpus;
import io.ragsearch.corpus.CorpusLoader;
import io.ragsearch.index.Language;
import io.ragsearch.rerank.RerankerModel;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One project's settings, resolved: its name and description, where its documents are (a
 * directory, or the database when empty), how it retrieves, and its reranker (empty: none).
 */
public record ProjectSettings(String name, String description, Optional<DirectorySource> directory, Retrieval retrieval,
                              Optional<RerankerModel> reranker) {

    /** A directory of documents: which files below it (globs) and whether 부칙 (addenda) count as articles. */
    public record DirectorySource(Path directory, List<String> include, boolean includeAddenda) {
        public static final List<String> DEFAULT_INCLUDE = CorpusLoader.DEFAULT_INCLUDE;

        public DirectorySource {
            include = List.copyOf(include);
        }
    }

    /**
     * How the project retrieves: the analyzer language (empty: detected from the corpus), the
     * retrieval mode (AUTO decides at load), and the gate threshold (empty: follows the mode, see
     * {@link RelevanceGate#of}).
     */
    public record Retrieval(Optional<Language> language, RetrievalMode mode, OptionalDouble gateThreshold) {
        public static final Retrieval DEFAULTS = new Retrieval(Optional.empty(), RetrievalMode.AUTO, OptionalDouble.empty());

        public Language languageFor(Corpus corpus) {
            return language.orElseGet(() -> Language.detect(corpus));
        }

        public RelevanceGate gate(RetrievalMode chosen, boolean trainedReranker, CosineEvidence evidence) {
            return RelevanceGate.of(gateThreshold.isPresent() ? gateThreshold.getAsDouble() : null, chosen, trainedReranker, evidence);
        }
    }

    /** A project of the database that no configuration entry describes. */
    public static ProjectSettings defaults(String name) {
        return new ProjectSettings(name, "", Optional.empty(), Retrieval.DEFAULTS, Optional.empty());
    }

    /** A directory project with every other setting at its default (--project NAME=DIR, tests). */
    public static ProjectSettings ofDirectory(String name, Path directory) {
        return new ProjectSettings(name, "", Optional.of(new DirectorySource(directory, DirectorySource.DEFAULT_INCLUDE, false)),
                Retrieval.DEFAULTS, Optional.empty());
    }

    public ProjectSettings withRetrieval(Retrieval other) {
        return new ProjectSettings(name, description, directory, other, reranker);
    }

    public ProjectSettings withReranker(RerankerModel model) {
        return new ProjectSettings(name, description, directory, retrieval, Optional.of(model));
    }
}
