package io.ragsearch.search;

/**
 * Bounds of one search. {@code legDepth}: candidates each retrieval leg contributes to fusion;
 * {@code candidates}: fused candidates judged by the gate (the design's top-M, default 32);
 * {@code maxHitChars}: article text returned per hit (read_article gives the rest).
 */
public record SearchLimits(int maxQueryChars, int defaultTopK, int maxTopK, int legDepth, int candidates, int maxHitChars) {

    public static final SearchLimits DEFAULTS = new SearchLimits(1000, 5, 20, 50, 32, 2000);

    public SearchLimits {
        if (maxQueryChars < 1 || defaultTopK < 1 || maxTopK < defaultTopK || legDepth < 1 || candidates < 1 || maxHitChars < 100) {
            throw new IllegalArgumentException("search limits out of range: " + this);
        }
    }
}
