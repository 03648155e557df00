package io.ragsearch.rerank;

import io.ragsearch.contract.BuiltinModels;
import io.ragsearch.embed.ModelFiles;
import io.ragsearch.embed.ModelRegistry;
import io.ragsearch.embed.PairTokenizer;
import io.ragsearch.embed.SessionSettings;
import io.ragsearch.embed.Tokenizers;
import java.io.IOException;

/** Builds rerankers from their settings, sharing sessions through the model registry. */
public final class RerankerFactory {

    public static final String STAND_IN = BuiltinModels.RERANK_STAND_IN;
    /**
     * The cost stand-in of XLM-R-large shape, generated on this machine (not in the jar or the
     * image): for calibration and benchmarks at the cost of the field's large rerankers.
     */
    public static final String LARGE_COST = LargePairCostStandIn.NAME;
    private final ModelRegistry registry;
    private final SessionSettings settings;

    public RerankerFactory(ModelRegistry registry, SessionSettings settings) {
        this.registry = registry;
        this.settings = settings;
    }

    /** Whether {@code name} is a built-in reranker (both are cost stand-ins). */
    public static boolean isBuiltin(String name) {
        return STAND_IN.equals(name) || LARGE_COST.equals(name);
    }

    public Reranker create(RerankerModel ref) throws IOException {
        int max = ref.maxSeqLen();
        if (ref.builtin() == null) {
            ModelFiles files = ModelFiles.fromDirectory(ref.directory());
            // Before the weights are read: a length past the position table fails only on a long pair, mid-search.
            String tooLong = files.positions().problem("reranker.maxSeqLen", max);
            if (tooLong != null) {
                throw new IOException("cross-encoder " + files.name() + ": " + tooLong);
            }
            PairTokenizer tokenizer = pairTokenizer(files, max);
            try {
                return new CrossEncoder(registry.load(files, settings), tokenizer, max, settings.intraOpThreads(), ref.mapping());
            } catch (IllegalArgumentException e) {
                tokenizer.close();
                throw new IOException(e.getMessage(), e); // its output does not fit the score mapping
            } catch (IOException | RuntimeException e) {
                tokenizer.close();
                throw e;
            }
        }
        if (STAND_IN.equals(ref.builtin())) {
            ModelFiles files = ModelFiles.builtin(ModelFiles.BUILTIN_MINILM);
            return new MiniLmPairStandIn(registry.load(files, settings), pairTokenizer(files, max), max, settings.intraOpThreads());
        }
        if (LARGE_COST.equals(ref.builtin())) {
            ModelFiles files = largeCostFiles(ref);
            return new LargePairCostStandIn(registry.load(files, settings), pairTokenizer(files, max), max, settings.intraOpThreads());
        }
        throw new IllegalArgumentException("unknown built-in reranker '" + ref.builtin() + "'; built in: " + STAND_IN + ", "
                + LARGE_COST + " (cost stand-ins, not trained cross-encoders)");
    }

    /** The generated model, only if it is the pinned one: anything else would measure another cost. */
    private static ModelFiles largeCostFiles(RerankerModel ref) throws IOException {
        if (ref.directory() == null) {
            throw new IOException("built-in reranker " + LARGE_COST + " is not on this machine: generate it with "
                    + LargePairCostStandIn.FETCH_SCRIPT + " (or set RAGSEARCH_BUILTIN_MODELS to where it is)");
        }
        ModelFiles files = ModelFiles.fromDirectory(ref.directory());
        if (!files.digest().equals(LargePairCostStandIn.SHA256)) {
            throw new IOException("built-in reranker " + LARGE_COST + " in " + ref.directory() + " has " + files.digest()
                    + ", not the pinned " + LargePairCostStandIn.SHA256 + ": generate it again with " + LargePairCostStandIn.FETCH_SCRIPT);
        }
        return files;
    }

    /** Ours for an XLM-R style (Unigram) vocabulary, DJL's for a WordPiece one (minilm-pair): Tokenizers.pairsFromJson. */
    private static PairTokenizer pairTokenizer(ModelFiles files, int maxSeqLen) throws IOException {
        return Tokenizers.pairsFromJson(files.readTokenizer(), maxSeqLen);
    }
}
