package io.ragsearch.server;

import io.ragsearch.embed.EmbeddingModel;
import io.ragsearch.embed.ModelFiles;
import io.ragsearch.embed.ModelRegistry;
import io.ragsearch.embed.SessionSettings;
import io.ragsearch.embed.TextEmbedder;
import io.ragsearch.search.ProjectLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedding model, loaded on first use: a configuration without a vector leg never pays for
 * it. Until then its tokenizer alone answers whether a corpus suits the model (AUTO retrieval).
 */
final class EmbeddingModelHolder implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddingModelHolder.class);

    private final EmbeddingModel model;
    private final SessionSettings session;
    private final ModelRegistry registry;
    private final Consumer<String> phase;
    private TextEmbedder embedder;
    private ProjectLoader.EmbeddingTokenizer tokenizerOnly;
    /** The files tokenizerOnly was read from: the embedder's digest must name that tokenizer.json. */
    private ModelFiles tokenizerFiles;

    /** @param phase told what is loading, for the startup probe */
    EmbeddingModelHolder(EmbeddingModel model, SessionSettings session, ModelRegistry registry, Consumer<String> phase) {
        this.model = model;
        this.session = session;
        this.registry = registry;
        this.phase = phase;
    }

    /** The tokenizer alone: enough to decide AUTO retrieval without loading the model. */
    synchronized ProjectLoader.EmbeddingTokenizer tokenizer() {
        if (embedder != null) {
            return new ProjectLoader.EmbeddingTokenizer(embedder.name(), embedder.tokenizer());
        }
        if (tokenizerOnly == null) {
            try {
                var files = model.files();
                tokenizerOnly = new ProjectLoader.EmbeddingTokenizer(files.name(), TextEmbedder.loadTokenizer(files, model.settings()));
                tokenizerFiles = files;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return tokenizerOnly;
    }

    synchronized TextEmbedder embedder() {
        if (embedder == null) {
            phase.accept("loading embedding model");
            try {
                long t0 = System.nanoTime();
                // The tokenizer the corpus check loaded is the embedder's: one copy of its vocabulary, not two.
                ProjectLoader.EmbeddingTokenizer handed = tokenizerOnly;
                tokenizerOnly = null; // taken over: closed with the embedder, or by load when it fails
                embedder = handed != null
                        ? TextEmbedder.load(registry, tokenizerFiles, session, model.settings(), handed.tokenizer())
                        : TextEmbedder.load(registry, model.files(), session, model.settings());
                LOG.info("embedding model {} ({}) loaded in {} ms", embedder.name(), embedder.digest(),
                        (System.nanoTime() - t0) / 1_000_000);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return embedder;
    }

    /** The model if something has loaded it; never loads. */
    synchronized Optional<TextEmbedder> loaded() {
        return Optional.ofNullable(embedder);
    }

    EmbeddingModel model() {
        return model;
    }

    @Override
    public synchronized void close() {
        if (embedder != null) {
            embedder.close();
        }
        if (tokenizerOnly != null) {
            tokenizerOnly.tokenizer().close();
        }
    }
}
