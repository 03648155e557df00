package io.ragsearch.eval;

import io.ragsearch.index.IndexedArticle;
import io.ragsearch.index.RankedArticle;
import io.ragsearch.search.Project;
import io.ragsearch.search.ProjectCatalog;
import io.ragsearch.search.SearchService;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The plain hybrid a newcomer would build: the Lucene BM25 baseline and the project's own vector
 * leg (same model, same vectors), merged by reciprocal-rank fusion with the customary k of 60 —
 * no gate, no weights, no query analysis. Projects that run without vectors are left out of it
 * (the BM25 baseline already answers for them).
 */
public final class FusionBaseline implements SearchBackend {

    static final int K = 60;
    private static final int DEPTH = 100;

    private final Bm25Baseline bm25;
    private final SearchService search;
    private final ProjectCatalog catalog;

    public FusionBaseline(Bm25Baseline bm25, SearchService search, ProjectCatalog catalog) {
        this.bm25 = bm25;
        this.search = search;
        this.catalog = catalog;
    }

    /** Whether any project has a vector leg this baseline could fuse. */
    public static boolean applies(ProjectCatalog catalog) {
        return catalog.all().stream().anyMatch(p -> p.mode().usesVectors() && p.index().hasVectors());
    }

    @Override
    public String name() {
        return "bm25+vectors rrf baseline";
    }

    @Override
    public Answer search(String project, String query, int topK) throws IOException {
        Optional<float[]> vector = search.queryVector(project, query);
        List<ArticleRef> lexical = bm25.search(project, query, DEPTH).results();
        if (vector.isEmpty()) {
            return new Answer(lexical.subList(0, Math.min(topK, lexical.size())), false, 0);
        }
        Project p = catalog.get(project);
        List<ArticleRef> semantic = new ArrayList<>();
        for (RankedArticle r : p.index().vector(vector.get(), DEPTH)) {
            IndexedArticle a = p.index().article(r.position());
            semantic.add(new ArticleRef(a.document().id(), a.article().label()));
        }
        return new Answer(fuse(List.of(lexical, semantic), topK), false, 0);
    }

    static List<ArticleRef> fuse(List<List<ArticleRef>> legs, int topK) {
        Map<ArticleRef, Double> scores = new LinkedHashMap<>();
        for (List<ArticleRef> leg : legs) {
            for (int rank = 0; rank < leg.size(); rank++) {
                scores.merge(leg.get(rank), 1.0 / (K + rank + 1), Double::sum);
            }
        }
        return scores.entrySet().stream().sorted(Map.Entry.<ArticleRef, Double>comparingByValue(Comparator.reverseOrder()))
                .limit(topK).map(Map.Entry::getKey).toList();
    }

    @Override
    public void close() {
        // The BM25 baseline is closed by its own entry in the backend list.
    }
}
