package io.ragsearch.search;

import io.ragsearch.corpus.Article;
import io.ragsearch.embed.TextEmbedder;
import io.ragsearch.index.IndexedArticle;
import io.ragsearch.index.ProjectIndex;
import io.ragsearch.index.RankedArticle;
import io.ragsearch.query.QueryTerms;
import io.ragsearch.rerank.RerankLimiter;
import io.ragsearch.rerank.Reranker;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The search pipeline: lexical and/or vector legs, score fusion ({@link ScoreFusion}), then the
 * relevance gate over the top candidates.
 *
 * <p>Relevance, the score the gate compares and the one returned, lies in [0, 1] whatever the
 * corpus: IDF-weighted query-term coverage for the lexical evidence, the model's cosine read as evidence
 * ({@link CosineEvidence}) for the vector side, and in hybrid mode the larger of the two. Raw BM25 and fused scores depend on
 * corpus size and query length, so no single threshold could serve every project with them.
 */
public final class SearchService {

    private static final String TRUNCATION_MARK = "\n[…truncated: read_article returns the full text]";

    private final ProjectCatalog catalog;
    private final Supplier<TextEmbedder> embedder;
    private final SearchLimits limits;
    private final RerankLimiter rerankLimiter;

    public SearchService(ProjectCatalog catalog, TextEmbedder embedder, SearchLimits limits) {
        this(catalog, () -> embedder, limits, null);
    }

    /** @param rerankLimiter the process-wide rerank bound; needed when any project reranks */
    public SearchService(ProjectCatalog catalog, Supplier<TextEmbedder> embedder, SearchLimits limits, RerankLimiter rerankLimiter) {
        this.catalog = catalog;
        this.embedder = embedder;
        this.limits = limits;
        this.rerankLimiter = rerankLimiter;
    }

    public SearchLimits limits() {
        return limits;
    }

    /** The query's vector as the project's vector leg would embed it; empty when the project runs without vectors. */
    public java.util.Optional<float[]> queryVector(String projectName, String query) {
        Project project = catalog.get(projectName);
        return project.mode().usesVectors() && project.index().hasVectors()
                ? java.util.Optional.of(embedder.get().embedQuery(validateQuery(query)))
                : java.util.Optional.empty();
    }

    public SearchResponse search(String projectName, String query, Integer topK) {
        Project project = catalog.get(projectName);
        String q = validateQuery(query);
        int k = validateTopK(topK);
        ProjectIndex index = project.index();
        RetrievalMode mode = project.mode();

        QueryTerms terms = index.queryAnalyzer().analyze(q);
        float[] queryVector = mode.usesVectors() ? embedder.get().embedQuery(q) : null;
        List<RankedArticle> lexical = mode.usesLexical() ? index.lexical(terms, limits.legDepth()) : List.of();
        List<RankedArticle> vector = queryVector != null ? index.vector(queryVector, limits.legDepth()) : List.of();
        List<ScoreFusion.Fused> candidates = !mode.usesLexical() ? ScoreFusion.single(vector, limits.candidates())
                : queryVector == null ? ScoreFusion.single(lexical, limits.candidates())
                : ScoreFusion.fuse(lexical, vector, position -> index.cosine(queryVector, position), ScoreFusion.LEXICAL_WEIGHT,
                        limits.candidates());

        double[] relevance = new double[candidates.size()];
        for (int i = 0; i < candidates.size(); i++) {
            relevance[i] = relevance(mode, project.cosineEvidence(), index, terms, queryVector, candidates.get(i).position());
        }
        List<Integer> order = rerank(project, q, candidates, relevance);

        // One decision per query: the best evidence among the candidates opens or closes the gate;
        // when it opens, the ranked top_k are returned whatever each one's own relevance.
        RelevanceGate gate = project.gate();
        double best = 0;
        for (double r : relevance) {
            best = Math.max(best, r);
        }
        RelevanceGate.Outcome outcome = gate.judge(best);
        List<SearchHit> hits = new ArrayList<>();
        if (outcome.passed()) {
            for (int i : order) {
                if (hits.size() == k) {
                    break;
                }
                hits.add(hit(index.article(candidates.get(i).position()), relevance[i]));
            }
        }
        Reranker reranker = project.reranker();
        String rerankerName = reranker == null ? "none" : reranker.trained() ? reranker.name() : reranker.name() + " (cost stand-in)";
        return new SearchResponse(project.name(), q, mode.wireName(), rerankerName, hits, outcome);
    }

    /**
     * The order in which candidates are judged. A trained cross-encoder scores every candidate
     * under the rerank bound; its probability becomes the relevance and sets the order. The cost
     * stand-in is run the same way (its cost is real) but leaves order and relevance alone.
     */
    private List<Integer> rerank(Project project, String query, List<ScoreFusion.Fused> candidates, double[] relevance) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < candidates.size(); i++) {
            order.add(i);
        }
        Reranker reranker = project.reranker();
        if (reranker == null || candidates.isEmpty()) {
            return order;
        }
        List<String> passages = candidates.stream()
                .map(c -> project.index().article(c.position()).article().searchableText())
                .toList();
        float[] scores = rerankLimiter.score(reranker, query, passages);
        if (reranker.trained()) {
            for (int i = 0; i < scores.length; i++) {
                relevance[i] = scores[i];
            }
            order.sort((a, b) -> Double.compare(relevance[b], relevance[a]));
        }
        return order;
    }

    private static double relevance(RetrievalMode mode, CosineEvidence evidence, ProjectIndex index, QueryTerms terms,
                                    float[] queryVector, int position) {
        double lexical = mode.usesLexical() ? index.coverage(terms, position) : 0;
        double vector = queryVector != null ? evidence.of(index.cosine(queryVector, position)) : 0;
        return Math.max(lexical, vector);
    }

    private SearchHit hit(IndexedArticle ia, double relevance) {
        Article a = ia.article();
        String text = a.body();
        if (text.length() > limits.maxHitChars()) {
            text = text.substring(0, limits.maxHitChars()) + TRUNCATION_MARK;
        }
        return new SearchHit(ia.document().id(), ia.document().title(), a.label(), a.title(),
                Math.round(relevance * 10_000) / 10_000.0, text);
    }

    private String validateQuery(String query) {
        String q = query == null ? "" : query.strip();
        if (q.isEmpty()) {
            throw new InvalidRequestException("query is empty: ask a question or give keywords");
        }
        if (q.length() > limits.maxQueryChars()) {
            throw new InvalidRequestException("query is " + q.length() + " characters; the limit is "
                    + limits.maxQueryChars() + ": shorten it to the question itself");
        }
        return q;
    }

    private int validateTopK(Integer topK) {
        int k = topK == null ? limits.defaultTopK() : topK;
        if (k < 1 || k > limits.maxTopK()) {
            throw new InvalidRequestException("top_k must be between 1 and " + limits.maxTopK() + ", got " + k);
        }
        return k;
    }
}
