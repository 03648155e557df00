package io.ragsearch.index;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Each live article's distinct analysed body terms, which the relevance gate's coverage asks
 * about: one dictionary of the corpus's terms and, per article, the sorted ids of its terms.
 * A set of strings per article held 6,316 bytes per statute article (54 terms: the hash
 * table, its nodes and a string per term, mostly the same words again and again), 5.9 GiB at 1M
 * articles; an int per term is 281 bytes (docs/benchmarks.md, "Hybrid search over 1M articles").
 */
final class ArticleTerms {

    private final Map<String, Integer> ids;
    private final int[][] byArticle;

    private ArticleTerms(Map<String, Integer> ids, int[][] byArticle) {
        this.ids = ids;
        this.byArticle = byArticle;
    }

    int articles() {
        return byArticle.length;
    }

    /** True when the article at {@code position} holds {@code term}. */
    boolean contains(int position, String term) {
        Integer id = ids.get(term);
        return id != null && Arrays.binarySearch(byArticle[position], id) >= 0;
    }

    /** Collects the articles' terms in index order. */
    static final class Builder {
        private final Map<String, Integer> ids = new HashMap<>();
        private final List<int[]> rows = new ArrayList<>();

        /** The next article's distinct terms. */
        void add(Collection<String> distinctTerms) {
            int[] row = new int[distinctTerms.size()];
            int i = 0;
            for (String term : distinctTerms) {
                Integer id = ids.get(term);
                if (id == null) {
                    id = ids.size();
                    ids.put(term, id);
                }
                row[i++] = id;
            }
            Arrays.sort(row);
            rows.add(row);
        }

        ArticleTerms build() {
            return new ArticleTerms(Map.copyOf(ids), rows.toArray(new int[0][]));
        }
    }
}
