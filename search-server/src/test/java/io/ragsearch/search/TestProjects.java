package io.ragsearch.search;

import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.embed.ModelFiles;
import io.ragsearch.embed.ModelRegistry;
import io.ragsearch.embed.SessionSettings;
import io.ragsearch.embed.TextEmbedder;
import io.ragsearch.server.SampleCorpus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/** The real built-in model, loaded once per test JVM, and the packaged sample corpus. */
public final class TestProjects {

    /** One registry for the test JVM, as in the server: each model is loaded once. */
    public static final ModelRegistry REGISTRY = new ModelRegistry();
    private static TextEmbedder embedder;

    private TestProjects() {
    }

    public static synchronized TextEmbedder embedder() {
        if (embedder == null) {
            try {
                embedder = TextEmbedder.load(REGISTRY, ModelFiles.builtin(ModelFiles.BUILTIN_MINILM), new SessionSettings(2, SessionSettings.Arena.SHRINK));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return embedder;
    }

    public static ProjectLoader.EmbeddingTokenizer tokenizer() {
        return new ProjectLoader.EmbeddingTokenizer(embedder().name(), embedder().tokenizer());
    }

    public static Path sampleDirectory(String sub) {
        try {
            return SampleCorpus.locate().resolve(sub);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static ServerSettings.Project config(String name, Path dir, String retrieval) {
        return ServerSettings.Project.ofDirectory(name, dir.toString()).withDescription("test project " + name).withRetrieval(retrieval);
    }

    /** The resolved settings of a directory project, as the server gives the loader. */
    public static ProjectSettings settings(String name, Path dir, String retrieval) {
        ProjectSettings p = ProjectSettings.ofDirectory(name, dir);
        return retrieval == null ? p : p.withRetrieval(new ProjectSettings.Retrieval(java.util.Optional.empty(),
                RetrievalMode.parse(retrieval), java.util.OptionalDouble.empty()));
    }

    public static Project load(String name, Path dir, String retrieval) throws IOException {
        return new ProjectLoader(TestProjects::tokenizer, TestProjects::embedder).load(settings(name, dir, retrieval));
    }
}
