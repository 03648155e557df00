package io.ragsearch.rerank;

import java.nio.file.Path;

/**
 * Which reranker to build: a built-in by name ({@link RerankerFactory#STAND_IN},
 * {@link RerankerFactory#LARGE_COST}) or a cross-encoder directory (model.onnx + tokenizer.json),
 * and the longest pair in tokens. A built-in kept outside the jar (the large cost stand-in) also
 * carries the folder it was found in; it stays a built-in (never treated as a trained model).
 * {@code mapping}: how a cross-encoder's logits become a relevance (a built-in's is never used).
 */
public record RerankerModel(String builtin, Path directory, int maxSeqLen, ScoreMapping mapping) {

    /** The length MiniLM was trained on (its cost at this length: docs/memory.md). */
    public static final int STAND_IN_MAX_SEQ = 256;
    /** The position limit of BERT-style cross-encoders. */
    public static final int CROSS_ENCODER_MAX_SEQ = 512;

    public RerankerModel {
        if (builtin == null && directory == null) {
            throw new IllegalArgumentException("a reranker is a built-in name or a directory");
        }
        mapping = mapping == null ? ScoreMapping.AUTO : mapping;
    }

    /** A built-in reranker; {@code maxSeqLen} null for its own length. */
    public static RerankerModel builtin(String name, Integer maxSeqLen) {
        return builtin(name, null, maxSeqLen);
    }

    /** A built-in kept outside the jar, in {@code foundIn} (null where it was not found). */
    public static RerankerModel builtin(String name, Path foundIn, Integer maxSeqLen) {
        return new RerankerModel(name, foundIn, maxSeqLen != null ? maxSeqLen : defaultMaxSeqLen(name), ScoreMapping.AUTO);
    }

    /** A cross-encoder directory; {@code maxSeqLen} null for the position limit of BERT-style models. */
    public static RerankerModel directory(Path directory, Integer maxSeqLen) {
        return directory(directory, maxSeqLen, ScoreMapping.AUTO);
    }

    /** A cross-encoder directory whose logits map to a relevance as {@code mapping} says. */
    public static RerankerModel directory(Path directory, Integer maxSeqLen, ScoreMapping mapping) {
        return new RerankerModel(null, directory, maxSeqLen == null ? CROSS_ENCODER_MAX_SEQ : maxSeqLen, mapping);
    }

    /** A built-in's own length: the one its shape's real models run at. */
    static int defaultMaxSeqLen(String builtin) {
        return LargePairCostStandIn.NAME.equals(builtin) ? LargePairCostStandIn.MAX_SEQ : STAND_IN_MAX_SEQ;
    }

    /** The name for logs and startup phases. */
    public String describe() {
        return builtin != null ? builtin : directory.toString();
    }
}
