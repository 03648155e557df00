package io.ragsearch.eval;

import io.ragsearch.search.SearchResponse;
import io.ragsearch.search.SearchService;

/** The search pipeline itself, called in this process (no HTTP, no tool threads). */
public final class InProcessBackend implements SearchBackend {

    private final SearchService search;

    public InProcessBackend(SearchService search) {
        this.search = search;
    }

    @Override
    public String name() {
        return "ragsearch";
    }

    @Override
    public Answer search(String project, String query, int topK) {
        SearchResponse r = search.search(project, query, topK);
        return new Answer(r.results().stream().map(h -> new ArticleRef(h.document(), h.article())).toList(),
                !r.gate().passed(), r.gate().bestScore());
    }
}
