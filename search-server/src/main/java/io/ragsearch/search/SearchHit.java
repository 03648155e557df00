package io.ragsearch.search;

/** One supporting article: document id, article label exactly as written, relevance in [0, 1]. */
public record SearchHit(String document, String documentTitle, String article, String title, double score, String text) {
}
