package io.ragsearch.embed.unigram;

import java.util.function.Consumer;

/**
 * The Metaspace pre-tokenizer: spaces become the replacement mark ({@code ▁}), a mark is put in
 * front of text that does not start with one (always, only at the start of the input, or never),
 * and with splitting on, every mark starts a new word. A trailing space therefore stays a word of
 * its own ("▁"), which the model encodes as the piece "▁": SentencePiece's own normaliser would
 * have dropped it, the Rust library (and so the model's served ids) keeps it.
 */
record Metaspace(char replacement, Prepend prepend, boolean split) {

    enum Prepend {
        ALWAYS, FIRST, NEVER
    }

    /** Gives each word of the normalised segment to words, in order. */
    void words(String normalized, boolean startOfInput, Consumer<String> words) {
        if (normalized.isEmpty()) {
            return;
        }
        String marked = normalized.replace(' ', replacement);
        boolean prefix = prepend == Prepend.ALWAYS || (prepend == Prepend.FIRST && startOfInput);
        if (prefix && marked.charAt(0) != replacement) {
            marked = replacement + marked;
        }
        if (!split) {
            words.accept(marked);
            return;
        }
        int from = 0;
        for (int i = 1; i < marked.length(); i++) {
            if (marked.charAt(i) == replacement) {
                words.accept(marked.substring(from, i));
                from = i;
            }
        }
        words.accept(marked.substring(from));
    }
}
