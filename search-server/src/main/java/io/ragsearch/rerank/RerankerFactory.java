package io.ragsearch.rerank;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import io.ragsearch.config.ConfigException;
import io.ragsearch.config.ServerConfig;
import io.ragsearch.embed.ModelFiles;
import io.ragsearch.embed.ModelRegistry;
import io.ragsearch.embed.SessionSettings;
import io.ragsearch.embed.Tokenizers;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/** Builds rerankers from configuration, sharing sessions through the model registry. */
public final class RerankerFactory {

    public static final String STAND_IN = "minilm-pair";
    /** ≈ 2.4 s for 32 pairs on an idle 2-core machine at 256: the length MiniLM was trained on. */
    static final int STAND_IN_MAX_SEQ = 256;
    /** The position limit of BERT-style cross-encoders. */
    static final int CROSS_ENCODER_MAX_SEQ = 512;

    private final ModelRegistry registry;
    private final SessionSettings settings;
    private final Map<String, String> env;

    public RerankerFactory(ModelRegistry registry, SessionSettings settings, Map<String, String> env) {
        this.registry = registry;
        this.settings = settings;
        this.env = env;
    }

    public Reranker create(ServerConfig.RerankerRef ref) throws IOException {
        if (ref.builtin() != null) {
            if (!STAND_IN.equals(ref.builtin())) {
                throw new ConfigException("unknown built-in reranker '" + ref.builtin() + "'; built in: " + STAND_IN
                        + " (a cost stand-in, not a trained cross-encoder)");
            }
            int max = ref.maxSeqLen() == null ? STAND_IN_MAX_SEQ : ref.maxSeqLen();
            ModelFiles files = ModelFiles.builtin(ModelFiles.BUILTIN_MINILM);
            return new MiniLmPairStandIn(registry.load(files, settings), pairTokenizer(files, max), max, settings.intraOpThreads());
        }
        Path dir = Path.of(ref.path());
        String modelDir = env.get("RAGSEARCH_MODEL_DIR");
        if (!dir.isAbsolute() && modelDir != null && !modelDir.isBlank()) {
            dir = Path.of(modelDir).resolve(dir);
        }
        ModelFiles files = ModelFiles.fromDirectory(dir);
        int max = ref.maxSeqLen() == null ? CROSS_ENCODER_MAX_SEQ : ref.maxSeqLen();
        return new CrossEncoder(registry.load(files, settings), pairTokenizer(files, max), max, settings.intraOpThreads());
    }

    private static HuggingFaceTokenizer pairTokenizer(ModelFiles files, int maxSeqLen) throws IOException {
        return HuggingFaceTokenizer.newInstance(new ByteArrayInputStream(files.readTokenizer()), Map.of(
                "truncation", "only_second",
                "padding", "false",
                "maxLength", Integer.toString(maxSeqLen),
                "modelMaxLength", Integer.toString(maxSeqLen)));
    }

    static {
        Tokenizers.class.getName(); // sets DJL's offline mode before the first tokenizer
    }
}
