package io.ragsearch.embed;

import io.ragsearch.config.ServerEnvironment;
import io.ragsearch.server.SettingsResolver;
import io.ragsearch.config.ConfigValidator;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.embed.unigram.UnigramTokenizer;
import io.ragsearch.config.ConfigLoader;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.search.TestProjects;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A multilingual model mounted through configuration, with a tiny XLM-R style model and Unigram
 * tokenizer the test writes (no download): every vector is checked against the exact value the
 * model's construction predicts, so pooling, normalisation, prefixes, truncation and the
 * output choice each show in the numbers.
 */
class MultilingualEmbeddingTest {

    @TempDir
    static Path models;

    static ModelFiles files;

    @BeforeAll
    static void writeModel() throws IOException {
        files = ModelFiles.fromDirectory(TinyEmbeddingModel.write(models.resolve("tiny-xlmr")));
    }

    private static TextEmbedder embedder(EmbeddingSettings settings) throws IOException {
        return TextEmbedder.load(TestProjects.REGISTRY, files, new SessionSettings(1, SessionSettings.Arena.SHRINK), settings);
    }

    private static EmbeddingSettings settings(String pooling, boolean normalize, int maxSeqLen, String query, String passage,
                                              String output) {
        return new EmbeddingSettings(EmbeddingSettings.Pooling.parse(pooling), normalize, maxSeqLen, query, passage, output, null);
    }

    private static List<Integer> ids(String... pieces) {
        return Arrays.stream(pieces).map(UnigramTokenizerJson::id).toList();
    }

    private static float[] unit(float[] v) {
        float[] out = v.clone();
        Vectors.scaleToUnitLength(out);
        return out;
    }

    @Test
    void unigramTokenizerEncodesLikeXlmRoberta() throws IOException {
        try (TextTokenizer t = Tokenizers.fromJson(UnigramTokenizerJson.json().getBytes(), 16)) {
            assertTrue(t instanceof UnigramTokenizer, "a Unigram tokenizer.json is read by our own tokenizer: " + t);
            TokenEncoding single = t.encode("근로자는 연차 휴가");
            assertEquals(List.of("<s>", "▁근로", "자는", "▁연차", "▁휴가", "</s>"), List.of(single.pieces()));
            assertEquals(ids("<s>", "▁근로", "자는", "▁연차", "▁휴가", "</s>"),
                    Arrays.stream(single.ids()).mapToInt(Math::toIntExact).boxed().toList());
            // A Unigram model reports an unknown piece under its own text, with the id of <unk>.
            TokenEncoding unknown = t.encodeContent("근밥");
            assertEquals(List.of("▁", "근", "밥"), List.of(unknown.pieces()));
            assertEquals(List.of((long) UnigramTokenizerJson.id("▁"), (long) UnigramTokenizerJson.id("근"), 3L),
                    Arrays.stream(unknown.ids()).boxed().toList());
        }
    }

    @Test
    void meanPoolingUnderTheMaskAndNormalisedByDefault() throws IOException {
        try (TextEmbedder e = embedder(EmbeddingSettings.DEFAULTS)) {
            assertEquals("last_hidden_state", e.output(), "the token-level output is chosen, not output 0 (sentence_embedding)");
            assertEquals(TinyEmbeddingModel.DIM, e.dimension());
            List<Integer> tokens = ids("<s>", "▁근로", "자는", "▁연차", "▁휴가", "</s>");
            float[] v = e.embedQuery("근로자는 연차 휴가");
            assertArrayEquals(unit(TinyEmbeddingModel.mean(tokens)), v, 1e-6f);
            assertEquals(1.0, Vectors.dot(v, v), 1e-5);
            // Passages given together come out as each alone would (each runs as long as its own tokens).
            float[][] batch = e.embedPassages(List.of("근로", "근로자는 연차 휴가"));
            assertArrayEquals(unit(TinyEmbeddingModel.mean(ids("<s>", "▁근로", "</s>"))), batch[0], 1e-6f);
            assertArrayEquals(v, batch[1], 1e-6f);
            assertEquals(ModelFiles.digestOf(files.modelPath()) + "+tokenizer=" + files.tokenizerDigest()
                    + ",pooling=mean,normalize=true,maxSeqLen=256,output=last_hidden_state,passagePrefix=\"\"", e.digest(),
                    "the model file, the tokenizer file and every setting that changes a passage vector, named");
        }
    }

    @Test
    void clsPoolingTakesTheFirstTokensVector() throws IOException {
        try (TextEmbedder cls = embedder(settings("cls", false, 256, "", "", null));
             TextEmbedder mean = embedder(settings("mean", false, 256, "", "", null))) {
            List<Integer> tokens = ids("<s>", "▁근로", "자는", "</s>");
            assertArrayEquals(TinyEmbeddingModel.cls(tokens), cls.embedQuery("근로자는"), 1e-5f);
            assertArrayEquals(TinyEmbeddingModel.mean(tokens), mean.embedQuery("근로자는"), 1e-5f);
            assertFalse(Arrays.equals(cls.embedQuery("근로자는"), mean.embedQuery("근로자는")));
            assertTrue(cls.digest().contains(",pooling=cls,normalize=false,"), cls.digest());
            assertNotEquals(cls.digest(), mean.digest());
        }
    }

    @Test
    void normalisationOffKeepsTheRawPooledVector() throws IOException {
        try (TextEmbedder raw = embedder(settings("mean", false, 256, "", "", null))) {
            float[] v = raw.embedQuery("연차 휴가");
            assertArrayEquals(TinyEmbeddingModel.mean(ids("<s>", "▁연차", "▁휴가", "</s>")), v, 1e-5f);
            assertTrue(Math.abs(Vectors.dot(v, v) - 1) > 0.5, "not unit length: " + Vectors.dot(v, v));
        }
    }

    @Test
    void queryAndPassagePrefixesApplyToTheirSideOnly() throws IOException {
        try (TextEmbedder e5 = embedder(settings("mean", false, 256, "query: ", "passage: ", null));
             TextEmbedder plain = embedder(settings("mean", false, 256, "", "", null))) {
            float[] query = e5.embedQuery("근로");
            float[] passage = e5.embedPassages(List.of("근로"))[0];
            assertArrayEquals(TinyEmbeddingModel.mean(ids("<s>", "▁query", ":", "▁근로", "</s>")), query, 1e-5f);
            assertArrayEquals(TinyEmbeddingModel.mean(ids("<s>", "▁passage", ":", "▁근로", "</s>")), passage, 1e-5f);
            assertArrayEquals(plain.embedQuery("query: 근로"), query, 1e-6f);
            // Only the passage prefix changes stored vectors, so only it enters the stored identity.
            assertTrue(e5.digest().endsWith(",passagePrefix=\"passage: \""), e5.digest());
            try (TextEmbedder queryOnly = embedder(settings("mean", false, 256, "query: ", "", null))) {
                assertEquals(plain.digest(), queryOnly.digest());
            }
        }
    }

    @Test
    void maxSeqLenTruncatesTheText() throws IOException {
        try (TextEmbedder shortModel = embedder(settings("mean", false, 8, "", "", null))) {
            // 7 pieces + <s> and </s> = 9 tokens; 8 keep the first 6 pieces.
            float[] v = shortModel.embedPassages(List.of("근로자는 연차 유급 휴가를 받는다"))[0];
            assertArrayEquals(TinyEmbeddingModel.mean(ids("<s>", "▁근로", "자는", "▁연차", "▁유급", "▁휴가", "를", "</s>")), v, 1e-5f);
            assertEquals(8, shortModel.tokenizer().encode("근로자는 연차 유급 휴가를 받는다").length());
            assertTrue(shortModel.digest().contains("maxSeqLen=8"), shortModel.digest());
        }
    }

    @Test
    void aNamedPooledOutputIsReadAsItIs() throws IOException {
        try (TextEmbedder pooled = embedder(settings("mean", false, 256, "", "", "sentence_embedding"))) {
            assertEquals("sentence_embedding", pooled.output());
            assertArrayEquals(TinyEmbeddingModel.sum(ids("<s>", "▁휴가", "</s>")), pooled.embedQuery("휴가"), 1e-5f);
            assertTrue(pooled.digest().contains(",output=sentence_embedding,"), pooled.digest());
        }
        try (TextEmbedder named = embedder(settings("mean", true, 256, "", "", "last_hidden_state"))) {
            try (TextEmbedder unnamed = embedder(settings("mean", true, 256, "", "", null))) {
                assertEquals(unnamed.digest(), named.digest(), "naming the default output changes nothing");
            }
        }
        IOException missing = assertThrows(IOException.class, () -> embedder(settings("mean", true, 256, "", "", "pooler_output")));
        assertTrue(missing.getMessage().contains("no output 'pooler_output'") && missing.getMessage().contains("sentence_embedding"),
                missing.getMessage());
    }

    @Test
    void mountedFromTheConfigurationFile() throws IOException {
        ServerSettings config = ConfigLoader.parse("""
                models:
                  embedding:
                    path: tiny-xlmr
                    pooling: cls
                    maxSeqLen: 512
                    queryPrefix: "query: "
                    passagePrefix: "passage: "
                projects:
                  - name: rules
                    source: {directory: /tmp}
                """, "test");
        ConfigValidator.validate(config);
        EmbeddingModel ref = SettingsResolver.embedding(config, ServerEnvironment.read(Map.of("RAGSEARCH_MODEL_DIR", models.toString())));
        ModelFiles fromConfig = ref.files();
        assertEquals(files.source(), fromConfig.source());
        EmbeddingSettings s = ref.settings();
        assertEquals(settings("cls", true, 512, "query: ", "passage: ", null), s);
        try (TextEmbedder e = TextEmbedder.load(TestProjects.REGISTRY, fromConfig, new SessionSettings(1, SessionSettings.Arena.SHRINK), s)) {
            assertArrayEquals(unit(TinyEmbeddingModel.cls(ids("<s>", "▁query", ":", "▁휴가", "</s>"))), e.embedQuery("휴가"), 1e-6f);
            assertNotEquals(ModelFiles.digestOf(files.modelPath()), e.digest());
        }
        assertEquals(EmbeddingSettings.DEFAULTS, SettingsResolver.embedding(ServerSettings.EMPTY.withModels(
                new ServerSettings.Models(ServerSettings.ModelRef.ofBuiltin("all-minilm-l6-v2"))), ServerEnvironment.read(Map.of())).settings(),
                "nothing configured: the built-in model's settings");
    }

    @Test
    void weightsInModelOnnxDataAreLoadedAndPartOfTheDigest() throws IOException {
        ModelFiles external = ModelFiles.fromDirectory(TinyEmbeddingModel.writeWithExternalData(models.resolve("external"), 1));
        ModelFiles doubled = ModelFiles.fromDirectory(TinyEmbeddingModel.writeWithExternalData(models.resolve("doubled"), 2));
        SessionSettings session = new SessionSettings(1, SessionSettings.Arena.SHRINK);
        EmbeddingSettings raw = settings("mean", false, 256, "", "", null);
        try (TextEmbedder e = TextEmbedder.load(TestProjects.REGISTRY, external, session, raw);
             TextEmbedder twice = TextEmbedder.load(TestProjects.REGISTRY, doubled, session, raw)) {
            float[] expected = TinyEmbeddingModel.mean(ids("<s>", "▁휴가", "</s>"));
            assertArrayEquals(expected, e.embedQuery("휴가"), 1e-5f, "the table comes from model.onnx_data");
            for (int d = 0; d < expected.length; d++) {
                expected[d] *= 2;
            }
            assertArrayEquals(expected, twice.embedQuery("휴가"), 1e-5f);
            assertEquals(java.nio.file.Files.mismatch(external.modelPath(), doubled.modelPath()), -1L, "the same graph file");
            assertNotEquals(e.digest().substring(0, 71), twice.digest().substring(0, 71), "other weights, another model");
            assertNotEquals(ModelFiles.digestOf(external.modelPath()), external.digest());
        }
    }

    @Test
    void anotherTokenizerFileIsAnotherIdentity() throws IOException {
        Path swapped = TinyEmbeddingModel.write(models.resolve("tiny-xlmr-swapped-tokenizer"));
        // The same model file, a tokenizer.json that differs by one piece's score: other ids, other vectors.
        String json = Files.readString(swapped.resolve("tokenizer.json"));
        Files.writeString(swapped.resolve("tokenizer.json"), json.replaceFirst("-3\\.0", "-9.0"));
        ModelFiles other = ModelFiles.fromDirectory(swapped);
        assertEquals(-1L, Files.mismatch(files.modelPath(), other.modelPath()), "the same model.onnx");
        EmbeddingSettings raw = settings("mean", false, 256, "", "", null);
        try (TextEmbedder genuine = embedder(raw);
             TextEmbedder tampered = TextEmbedder.load(TestProjects.REGISTRY, other, new SessionSettings(1, SessionSettings.Arena.SHRINK), raw)) {
            assertNotEquals(files.tokenizerDigest(), other.tokenizerDigest());
            assertNotEquals(genuine.digest(), tampered.digest(), "a swapped tokenizer.json must not write or read the genuine vectors");
            // Through the cache: what the tampered embedder wrote, the genuine one never reads (it embeds afresh).
            VectorCache cache = new VectorCache(models.resolve("cache-" + System.nanoTime()));
            List<String> texts = List.of("근로자는 연차 휴가", "유급 휴가를 받는다");
            assertEquals(2, cache.passages(tampered, "rules", texts).embedded());
            VectorCache.Outcome read = cache.passages(genuine, "rules", texts);
            assertEquals(0, read.reused());
            assertArrayEquals(genuine.embedPassages(texts)[1], read.vectors()[1], 1e-6f);
        }
    }

    @Test
    void aTokenizerFileChangedWhileLoadingIsRefused() throws IOException {
        Path dir = TinyEmbeddingModel.write(models.resolve("tiny-xlmr-changing"));
        ModelFiles changing = ModelFiles.fromDirectory(dir);
        changing.readTokenizer();
        Files.writeString(dir.resolve("tokenizer.json"), Files.readString(dir.resolve("tokenizer.json")) + " ");
        IOException e = assertThrows(IOException.class, changing::readTokenizer);
        assertTrue(e.getMessage().contains("changed while it was loading"), e.getMessage());
    }

    @Test
    void builtInModelKeepsItsIdentityAndVectors() throws IOException {
        TextEmbedder builtin = TestProjects.embedder();
        assertEquals(EmbeddingSettings.DEFAULTS, builtin.settings());
        ModelFiles minilm = ModelFiles.builtin(ModelFiles.BUILTIN_MINILM);
        assertTrue(builtin.digest().startsWith(ModelFiles.digestOf(minilm.modelPath()) + "+tokenizer=" + minilm.tokenizerDigest() + ","),
                builtin.digest());
        assertEquals("last_hidden_state", builtin.output());
    }
}
