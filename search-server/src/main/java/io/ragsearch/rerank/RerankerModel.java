package io.ragsearch.rerank;

import java.nio.file.Path;

/**
 * Which reranker to build: a built-in by name ({@link RerankerFactory#STAND_IN}) or a cross-encoder
 * directory (model.onnx + tokenizer.json), exactly one of the two, and the longest pair in tokens.
 */
public record RerankerModel(String builtin, Path directory, int maxSeqLen) {

    /** The length MiniLM was trained on (its cost at this length: docs/memory.md). */
    public static final int STAND_IN_MAX_SEQ = 256;
    /** The position limit of BERT-style cross-encoders. */
    public static final int CROSS_ENCODER_MAX_SEQ = 512;

    public RerankerModel {
        if ((builtin == null) == (directory == null)) {
            throw new IllegalArgumentException("a reranker is a built-in name or a directory, exactly one");
        }
    }

    /** A built-in reranker; {@code maxSeqLen} null for its own length. */
    public static RerankerModel builtin(String name, Integer maxSeqLen) {
        return new RerankerModel(name, null, maxSeqLen == null ? STAND_IN_MAX_SEQ : maxSeqLen);
    }

    /** A cross-encoder directory; {@code maxSeqLen} null for the position limit of BERT-style models. */
    public static RerankerModel directory(Path directory, Integer maxSeqLen) {
        return new RerankerModel(null, directory, maxSeqLen == null ? CROSS_ENCODER_MAX_SEQ : maxSeqLen);
    }

    /** The name for logs and startup phases. */
    public String describe() {
        return builtin != null ? builtin : directory.toString();
    }
}
