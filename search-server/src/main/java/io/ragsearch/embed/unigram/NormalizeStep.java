package io.ragsearch.embed.unigram;

/** One step of tokenizer.json's normalizer: text in, normalised text out. */
@FunctionalInterface
interface NormalizeStep {

    String apply(String text);
}
