package io.ragsearch.embed;

import java.util.List;
import java.util.Set;

/**
 * Text to model input ids, as an embedding model's tokenizer.json says. Two implementations:
 * our own SentencePiece Unigram ({@link io.ragsearch.embed.unigram.UnigramTokenizer}, for
 * XLM-R style vocabularies whose Rust original costs hundreds of MiB) and DJL's Hugging Face
 * binding for every other model type ({@link DjlTokenizer}). {@link Tokenizers#fromJson} picks.
 */
public interface TextTokenizer extends AutoCloseable {

    /** With the model's special tokens, truncated to the maximum length: what the model is given. */
    TokenEncoding encode(String text);

    /** The content pieces alone: no special tokens (truncated to the maximum length all the same). */
    TokenEncoding encodeContent(String text);

    /** The ids that stand for text the vocabulary cannot represent. */
    Set<Long> unknownIds();

    default TokenEncoding[] encodeAll(List<String> texts) {
        TokenEncoding[] out = new TokenEncoding[texts.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = encode(texts.get(i));
        }
        return out;
    }

    @Override
    void close();
}
