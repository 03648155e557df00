package io.ragsearch.rerank;

import io.ragsearch.contract.BuiltinModels;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import io.ragsearch.embed.ModelFiles;
import io.ragsearch.embed.ModelRegistry;
import io.ragsearch.embed.SessionSettings;
import io.ragsearch.embed.Tokenizers;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Map;

/** Builds rerankers from their settings, sharing sessions through the model registry. */
public final class RerankerFactory {

    public static final String STAND_IN = BuiltinModels.RERANK_STAND_IN;
    private final ModelRegistry registry;
    private final SessionSettings settings;

    public RerankerFactory(ModelRegistry registry, SessionSettings settings) {
        this.registry = registry;
        this.settings = settings;
    }

    public Reranker create(RerankerModel ref) throws IOException {
        int max = ref.maxSeqLen();
        if (ref.builtin() != null) {
            if (!STAND_IN.equals(ref.builtin())) {
                throw new IllegalArgumentException("unknown built-in reranker '" + ref.builtin() + "'; built in: " + STAND_IN
                        + " (a cost stand-in, not a trained cross-encoder)");
            }
            ModelFiles files = ModelFiles.builtin(ModelFiles.BUILTIN_MINILM);
            return new MiniLmPairStandIn(registry.load(files, settings), pairTokenizer(files, max), max, settings.intraOpThreads());
        }
        ModelFiles files = ModelFiles.fromDirectory(ref.directory());
        return new CrossEncoder(registry.load(files, settings), pairTokenizer(files, max), max, settings.intraOpThreads());
    }

    private static HuggingFaceTokenizer pairTokenizer(ModelFiles files, int maxSeqLen) throws IOException {
        Tokenizers.offline();
        return HuggingFaceTokenizer.newInstance(new ByteArrayInputStream(files.readTokenizer()), Map.of(
                "truncation", "only_second",
                "padding", "false",
                "maxLength", Integer.toString(maxSeqLen),
                "modelMaxLength", Integer.toString(maxSeqLen)));
    }
}
