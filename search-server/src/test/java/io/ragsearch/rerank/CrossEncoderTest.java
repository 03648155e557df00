package io.ragsearch.rerank;

import io.ragsearch.config.ServerEnvironment;
import io.ragsearch.server.SettingsResolver;
import io.ragsearch.config.ConfigValidator;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.config.ConfigLoader;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.embed.UnigramTokenizerJson;
import io.ragsearch.embed.ModelRegistry;
import io.ragsearch.embed.SessionSettings;
import io.ragsearch.embed.unigram.UnigramTokenizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real directory loading and logits handling, on a model whose output is known exactly. */
class CrossEncoderTest {

    @TempDir
    Path dir;

    private Reranker load(boolean twoClasses, Integer maxSeqLen, ModelRegistry registry) throws IOException {
        Path modelDir = TinyCrossEncoderModel.write(dir.resolve(twoClasses ? "two" : "one"), twoClasses);
        return new RerankerFactory(registry, new SessionSettings(1, SessionSettings.Arena.SHRINK))
                .create(RerankerModel.directory(modelDir, maxSeqLen));
    }

    private static int passageTokens(Reranker r, String query, String passage) {
        PairBatch b = r.encode(query, List.of(passage));
        int n = 0;
        for (int t = 0; t < b.width(); t++) {
            n += (int) (b.mask()[0][t] * b.types()[0][t]);
        }
        return n;
    }

    @Test
    void singleLogitIsASigmoidOfTheModelsOutput() throws IOException {
        try (ModelRegistry registry = new ModelRegistry()) {
            Reranker r = load(false, null, registry);
            assertTrue(r.trained());
            assertEquals(512, r.maxSeqLen());
            assertFalse(((OnnxPairModel) r).pairTokenizer() instanceof UnigramTokenizer, "a WordPiece vocabulary stays with the Rust library");
            assertTrue(r.digest().startsWith("sha256:"));
            String q = "annual leave";
            List<String> passages = List.of("leave", "fifteen days of paid annual leave every year", "x y");
            float[] scores = r.run(r.encode(q, passages));
            for (int i = 0; i < passages.size(); i++) {
                assertEquals(TinyCrossEncoderModel.expectedScore(passageTokens(r, q, passages.get(i)), false), scores[i], 1e-6,
                        passages.get(i));
            }
            assertTrue(scores[1] > scores[0], "more passage tokens, higher logit");
        }
    }

    @Test
    void twoClassLogitsTakeThePositiveClass() throws IOException {
        try (ModelRegistry registry = new ModelRegistry()) {
            Reranker r = load(true, null, registry);
            float[] scores = r.run(r.encode("q", List.of("one two three four five six seven eight nine ten")));
            assertEquals(TinyCrossEncoderModel.expectedScore(passageTokens(r, "q", "one two three four five six seven eight nine ten"), true),
                    scores[0], 1e-6);
        }
    }

    @Test
    void longPairsAreCutOnThePassageSideAtMaxSeqLen() throws IOException {
        try (ModelRegistry registry = new ModelRegistry()) {
            Reranker r = load(false, 16, registry);
            String query = "how many days of leave";          // [CLS] + 5 words + [SEP] = 7 query-side tokens
            PairBatch b = r.encode(query, List.of("word ".repeat(100)));
            assertEquals(16, b.width());
            assertEquals(16 - 7, passageTokens(r, query, "word ".repeat(100)));
            assertEquals(TinyCrossEncoderModel.expectedScore(9, false), r.run(r.encode(query, List.of("word ".repeat(100))))[0], 1e-6);
        }
    }

    @Test
    void anXlmRobertaCrossEncoderFromTheConfigurationKeepsTheQueryWhole() throws IOException {
        Path modelDir = TinyCrossEncoderModel.writeXlmRoberta(dir.resolve("models/bge-reranker"));
        ServerSettings config = ConfigLoader.parse("""
                projects:
                  - name: rules
                    source: {directory: /tmp}
                    reranker: {path: bge-reranker, maxSeqLen: 10}
                """, "test");
        ConfigValidator.validate(config);
        try (ModelRegistry registry = new ModelRegistry()) {
            // bge-reranker style: no token_type_ids input, <s> A </s></s> B </s>, one logit.
            Reranker r = new RerankerFactory(registry, new SessionSettings(1, SessionSettings.Arena.SHRINK)).create(SettingsResolver.reranker(
                    config.projects().get(0).reranker(), ServerEnvironment.read(Map.of("RAGSEARCH_MODEL_DIR", modelDir.getParent().toString()))));
            assertEquals(10, r.maxSeqLen());
            assertInstanceOf(UnigramTokenizer.class, ((OnnxPairModel) r).pairTokenizer(), "a Unigram vocabulary's pairs are ours to encode");
            PairBatch b = r.encode("근로 시간", List.of("근로자는 연차 유급 휴가를 받는다"));
            List<Long> expected = java.util.stream.Stream.of("<s>", "▁근로", "▁시간", "</s>", "</s>", "▁근로", "자는", "▁연차", "▁유급", "</s>")
                    .map(p -> (long) UnigramTokenizerJson.id(p)).toList();
            assertEquals(expected, java.util.Arrays.stream(b.ids()[0]).boxed().toList(), "the passage is cut, the query kept");
            float[] scores = r.run(r.encode("근로 시간", List.of("근로자는 연차 유급 휴가를 받는다", "휴가")));
            assertEquals(TinyCrossEncoderModel.expectedScore(10, false), scores[0], 1e-6);
            assertEquals(TinyCrossEncoderModel.expectedScore(7, false), scores[1], 1e-6, "<s> ▁근로 ▁시간 </s></s> ▁휴가 </s>");
        }
    }

    @Test
    void aDirectoryWithoutTheModelIsAClearError() throws IOException {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        try (ModelRegistry registry = new ModelRegistry()) {
            IOException e = assertThrows(IOException.class, () -> new RerankerFactory(registry,
                    new SessionSettings(1, SessionSettings.Arena.SHRINK))
                    .create(RerankerModel.directory(empty, null)));
            assertTrue(e.getMessage().contains("has no model.onnx"), e.getMessage());
        }
    }
}
