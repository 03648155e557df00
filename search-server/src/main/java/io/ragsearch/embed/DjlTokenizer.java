package io.ragsearch.embed;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** DJL's binding of the Rust Hugging Face tokenizers: every model type other than Unigram. */
final class DjlTokenizer implements TextTokenizer {

    /** The unknown token of WordPiece and of SentencePiece vocabularies. */
    private static final List<String> UNKNOWN = List.of("[UNK]", "<unk>");

    private final HuggingFaceTokenizer tokenizer;

    DjlTokenizer(HuggingFaceTokenizer tokenizer) {
        this.tokenizer = tokenizer;
    }

    @Override
    public TokenEncoding encode(String text) {
        return of(tokenizer.encode(text));
    }

    @Override
    public TokenEncoding encodeContent(String text) {
        return of(tokenizer.encode(text, false, false));
    }

    @Override
    public TokenEncoding[] encodeAll(List<String> texts) {
        Encoding[] encodings = tokenizer.batchEncode(texts);
        TokenEncoding[] out = new TokenEncoding[encodings.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = of(encodings[i]);
        }
        return out;
    }

    /**
     * The unknown token's id, found by encoding its spelling and checking the decoded text: a
     * Unigram model reports an unknown word under its own text, so the id is what identifies it.
     */
    @Override
    public Set<Long> unknownIds() {
        Set<Long> ids = new HashSet<>();
        for (String unknown : UNKNOWN) {
            for (long id : tokenizer.encode(unknown, false, false).getIds()) {
                if (tokenizer.decode(new long[] {id}, false).equals(unknown)) {
                    ids.add(id);
                }
            }
        }
        return ids;
    }

    private static TokenEncoding of(Encoding e) {
        return new TokenEncoding(e.getIds(), e.getTypeIds(), e.getAttentionMask(), e.getTokens(), e.getWordIds());
    }

    @Override
    public void close() {
        tokenizer.close();
    }
}
