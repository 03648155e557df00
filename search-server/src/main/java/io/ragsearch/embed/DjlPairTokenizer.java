package io.ragsearch.embed;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;

/** DJL's binding of the Rust library, encoding pairs: WordPiece rerankers (minilm-pair) and anything not Unigram. */
final class DjlPairTokenizer implements PairTokenizer {

    private final HuggingFaceTokenizer tokenizer;

    DjlPairTokenizer(HuggingFaceTokenizer tokenizer) {
        this.tokenizer = tokenizer;
    }

    @Override
    public TokenEncoding encodePair(String first, String second) {
        Encoding e;
        try {
            e = tokenizer.encode(first, second, true, false);
        } catch (RuntimeException refused) {
            // The library refuses a pair whose first text leaves the second no room (only_second).
            throw new IllegalArgumentException("the pair does not fit: " + refused.getMessage(), refused);
        }
        return new TokenEncoding(e.getIds(), e.getTypeIds(), e.getAttentionMask(), e.getTokens(), e.getWordIds());
    }

    @Override
    public void close() {
        tokenizer.close();
    }
}
