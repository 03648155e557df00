package io.ragsearch.index;

/** One leg's result: the index position of an article and the leg's own score. */
public record RankedArticle(int position, float score) {
}
