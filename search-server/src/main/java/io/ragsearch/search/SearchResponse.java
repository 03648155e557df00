package io.ragsearch.search;

import java.util.List;

/** The answer to a search: the supporting articles (none when the gate closed) and the gate's numbers. */
public record SearchResponse(String project, String query, String retrieval, String reranker, List<SearchHit> results,
                             RelevanceGate.Outcome gate) {
}
