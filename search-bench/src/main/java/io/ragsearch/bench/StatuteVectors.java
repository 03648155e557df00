package io.ragsearch.bench;

import io.ragsearch.corpus.Corpus;
import io.ragsearch.corpus.CorpusLoader;
import io.ragsearch.embed.EmbeddingModel;
import io.ragsearch.embed.ModelRegistry;
import io.ragsearch.embed.SessionSettings;
import io.ragsearch.embed.TextEmbedder;
import io.ragsearch.embed.VectorCache;
import io.ragsearch.eval.Question;
import io.ragsearch.eval.QuestionFile;
import io.ragsearch.index.IndexBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The Korean statutes with the built-in model: the corpus, its article vectors (through the
 * server's vector cache, so a second run reads them) and the eval questions' query vectors.
 */
final class StatuteVectors implements AutoCloseable {

    private final ModelRegistry registry;
    private final TextEmbedder embedder;
    private final Corpus corpus;
    private final List<String> queries;

    private StatuteVectors(ModelRegistry registry, TextEmbedder embedder, Corpus corpus, List<String> queries) {
        this.registry = registry;
        this.embedder = embedder;
        this.corpus = corpus;
        this.queries = queries;
    }

    static StatuteVectors load(Path statutes, List<Path> questionFiles) throws IOException {
        EmbeddingModel model = EmbeddingBench.installedE5();
        Corpus corpus = new CorpusLoader(false, List.of("*.md")).load("ko-statutes", statutes).corpus();
        List<String> queries = new ArrayList<>();
        for (Path file : questionFiles) {
            Path found = Files.isRegularFile(file) || file.isAbsolute() ? file : Path.of("..").resolve(file);
            for (Question q : QuestionFile.load(found).questions()) {
                queries.add(q.query());
            }
        }
        ModelRegistry registry = new ModelRegistry();
        SessionSettings session = new SessionSettings(Runtime.getRuntime().availableProcessors(), SessionSettings.DEFAULT_ARENA);
        registry.load(model.files(), session);
        TextEmbedder embedder = TextEmbedder.load(registry, model.files(), session, model.settings());
        return new StatuteVectors(registry, embedder, corpus, queries);
    }

    Corpus corpus() {
        return corpus;
    }

    List<String> queries() {
        return queries;
    }

    TextEmbedder embedder() {
        return embedder;
    }

    /** The live articles' vectors in index order, read from (or written to) the vector cache under {@code cacheRoot}. */
    float[][] articleVectors(Path cacheRoot) {
        return new VectorCache(cacheRoot).passages(embedder, corpus.project(), IndexBuilder.embeddingTexts(corpus)).vectors();
    }

    float[][] queryVectors() {
        float[][] out = new float[queries.size()][];
        for (int i = 0; i < out.length; i++) {
            out[i] = embedder.embedQuery(queries.get(i));
        }
        return out;
    }

    @Override
    public void close() {
        embedder.close();
        registry.close();
    }
}
