package io.ragsearch.store;

import io.ragsearch.search.ProjectSettings;
import io.ragsearch.refresh.StoredProjectLoader;
import static io.ragsearch.store.TestDatabase.cli;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.corpus.Document;
import io.ragsearch.embed.EmbeddingSettings;
import io.ragsearch.embed.ModelFiles;
import io.ragsearch.embed.SessionSettings;
import io.ragsearch.embed.TextEmbedder;
import io.ragsearch.embed.TinyEmbeddingModel;
import io.ragsearch.embed.UnigramTokenizerJson;
import io.ragsearch.index.IndexBuilder;
import io.ragsearch.index.IndexedArticle;
import io.ragsearch.search.ProjectLoader;
import io.ragsearch.search.TestProjects;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ingest --config} embeds with the server's configured model and vector settings (the
 * passage prefix included), records an identity that names those settings, rewrites every
 * document when they change, and a server with other settings refuses the stored vectors.
 */
class MultilingualIngestIT {

    @TempDir
    Path dir;

    private Path config(Path model, String passagePrefix) throws IOException {
        Path file = dir.resolve("server-" + passagePrefix.length() + ".yaml");
        Files.writeString(file, """
                models:
                  embedding:
                    path: %s
                    queryPrefix: "query: "
                    passagePrefix: "%s"
                """.formatted(model, passagePrefix));
        return file;
    }

    private static TextEmbedder embedder(ModelFiles files, String passagePrefix) throws IOException {
        return TextEmbedder.load(TestProjects.REGISTRY, files, new SessionSettings(1, SessionSettings.Arena.SHRINK),
                new EmbeddingSettings(EmbeddingSettings.Pooling.MEAN, true, 256, "query: ", passagePrefix, null, null));
    }

    @Test
    void ingestEmbedsPassagesWithTheConfiguredSettingsAndStaleOnesAreRefused() throws Exception {
        String project = "multilingual-" + System.nanoTime();
        Path model = TinyEmbeddingModel.write(dir.resolve("models/multilingual-e5"));
        Path corpus = Files.createDirectories(dir.resolve("corpus"));
        Files.writeString(corpus.resolve("rules.md"), UnigramTokenizerJson.KOREAN_SAMPLE);
        ModelFiles files = ModelFiles.fromDirectory(model);
        String url = TestDatabase.url();

        // Other tests serve every project of the database with the built-in model: this one must not outlive the test.
        try {
            String out = cli("ingest", "--db", url, "--user", TestDatabase.user(), "--project", project,
                    "--config", config(model, "passage: ").toString(), corpus.toString());
            assertTrue(out.contains("embeddings multilingual-e5"), "auto judged the model fit for Korean: " + out);
            try (Database db = TestDatabase.open();
                 TextEmbedder e5 = embedder(files, "passage: ");
                 TextEmbedder noPrefix = embedder(files, "")) {
                StoredProject stored = new CorpusStore(db).read(project).orElseThrow();
                assertEquals(e5.digest(), stored.embeddingDigest());
                assertTrue(stored.embeddingDigest().endsWith(",passagePrefix=\"passage: \""), stored.embeddingDigest());
                Document d = stored.corpus().documents().get(0);
                List<String> texts = d.articles().stream().map(a -> IndexBuilder.embeddingText(new IndexedArticle(d, a))).toList();
                float[][] expected = e5.embedPassages(texts);
                for (int i = 0; i < texts.size(); i++) {
                    assertArrayEquals(expected[i], stored.vectors()[i], 1e-6f, "stored vectors carry the passage prefix");
                    assertFalse(java.util.Arrays.equals(noPrefix.embedPassages(texts)[i], stored.vectors()[i]));
                }

                // A server whose settings make other passage vectors refuses them; the matching one serves them.
                StoredProjectLoader stale = new StoredProjectLoader(() -> noPrefix, r -> null);
                IOException refused = assertThrows(IOException.class, () -> stale.load(stored, ProjectSettings.defaults(project)));
                assertTrue(refused.getMessage().contains("re-run ingest"), refused.getMessage());
                StoredProjectLoader matching = new StoredProjectLoader(() -> e5, r -> null);
                assertEquals("hybrid", matching.load(stored, ProjectSettings.defaults(project)).mode().wireName());
            }

            // Changed settings: every document is re-embedded, though no file changed.
            String again = cli("ingest", "--db", url, "--user", TestDatabase.user(), "--project", project,
                    "--config", config(model, "").toString(), corpus.toString());
            assertTrue(again.contains("0 added, 1 updated"), again);
            try (Database db = TestDatabase.open(); TextEmbedder noPrefix = embedder(files, "")) {
                assertEquals(noPrefix.digest(), new CorpusStore(db).read(project).orElseThrow().embeddingDigest());
                assertTrue(noPrefix.digest().startsWith(ModelFiles.digestOf(model.resolve("model.onnx")) + "+tokenizer=sha256:"),
                        noPrefix.digest());
            }
        } finally {
            TestDatabase.execute("DELETE FROM projects WHERE name = '" + project + "'");
        }
    }
}
