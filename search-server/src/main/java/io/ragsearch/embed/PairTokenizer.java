package io.ragsearch.embed;

/**
 * Text pairs to cross-encoder input, as the model's tokenizer.json lays two texts out (XLM-R:
 * {@code <s> A </s></s> B </s>}; BERT: {@code [CLS] A [SEP] B [SEP]} with type ids 0 then 1).
 * The pair is cut to the maximum length (special tokens included) on the second text only, as
 * the Rust library's {@code only_second} truncation cuts it: the query stays whole, the passage
 * loses its end. Two implementations, as for single texts: our Unigram tokenizer and DJL's
 * binding of the Rust library; {@link Tokenizers#pairsFromJson} picks.
 */
public interface PairTokenizer extends AutoCloseable {

    /**
     * The pair with its special tokens, unpadded.
     *
     * @throws IllegalArgumentException when the first text alone leaves the second no token
     *     within the maximum length (the Rust library refuses such a pair too)
     */
    TokenEncoding encodePair(String first, String second);

    @Override
    void close();
}
