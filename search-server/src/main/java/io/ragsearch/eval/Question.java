package io.ragsearch.eval;

import java.util.List;

/**
 * One question of a question file. Answerable questions list every article that answers them
 * ({@code expect}, the first is the main one; any counts as a hit); the others must be refused
 * ("no supporting documents").
 */
public record Question(String id, String kind, String project, String query, List<ArticleRef> expect, boolean refused) {

    public Question {
        expect = List.copyOf(expect);
    }

    /** The rank (1-based) of the first expected article in {@code results}, 0 when none is there. */
    public int rankIn(List<ArticleRef> results) {
        for (int i = 0; i < results.size(); i++) {
            ArticleRef r = results.get(i);
            if (expect.stream().anyMatch(r::sameAs)) {
                return i + 1;
            }
        }
        return 0;
    }
}
