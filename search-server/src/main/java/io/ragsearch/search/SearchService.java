package io.ragsearch.search;

import io.ragsearch.corpus.Article;
import io.ragsearch.embed.TextEmbedder;
import io.ragsearch.index.IndexedArticle;
import io.ragsearch.index.ProjectIndex;
import io.ragsearch.index.RankedArticle;
import io.ragsearch.query.QueryTerms;
import io.ragsearch.rerank.RerankLimiter;
import io.ragsearch.rerank.Reranker;
import io.opentelemetry.api.trace.Tracer;
import io.ragsearch.telemetry.Conventions;
import io.ragsearch.telemetry.Step;
import io.ragsearch.telemetry.Telemetry;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The search pipeline: lexical and/or vector legs, score fusion ({@link ScoreFusion}), then the
 * relevance gate over the top candidates. Each search is a span with a child per stage
 * (docs/telemetry.md): lexical, vectors (with the query's embedding), fusion, rerank wait and
 * rerank ({@link RerankLimiter}), gate.
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
    private final Tracer tracer;

    public SearchService(ProjectCatalog catalog, TextEmbedder embedder, SearchLimits limits) {
        this(catalog, () -> embedder, limits, null);
    }

    /** The process-wide rerank bound (a live re-tune moves its permits). */
    public RerankLimiter rerankLimiter() {
        return rerankLimiter;
    }

    /** @param rerankLimiter the process-wide rerank bound; needed when any project reranks */
    public SearchService(ProjectCatalog catalog, Supplier<TextEmbedder> embedder, SearchLimits limits, RerankLimiter rerankLimiter) {
        this(catalog, embedder, limits, rerankLimiter, Telemetry.OFF_TRACER);
    }

    public SearchService(ProjectCatalog catalog, Supplier<TextEmbedder> embedder, SearchLimits limits, RerankLimiter rerankLimiter,
                         Tracer tracer) {
        this.catalog = catalog;
        this.embedder = embedder;
        this.limits = limits;
        this.rerankLimiter = rerankLimiter;
        this.tracer = tracer;
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

    /**
     * Both legs of one query before fusion, as the pipeline computes them; the eval's feature dump
     * reads the same values the served search does.
     */
    public record Retrieval(Project project, QueryTerms terms, float[] queryVector, List<RankedArticle> lexical,
                            List<RankedArticle> vector) {
    }

    public Retrieval retrieve(String projectName, String query) {
        return retrieve(catalog.get(projectName), validateQuery(query));
    }

    private Retrieval retrieve(Project project, String q) {
        ProjectIndex index = project.index();
        RetrievalMode mode = project.mode();
        QueryTerms terms = index.queryAnalyzer().analyze(q);
        List<RankedArticle> lexical = List.of();
        if (mode.usesLexical()) {
            try (Step step = Step.start(tracer, "search.lexical")) {
                lexical = index.lexical(terms, limits.legDepth());
                step.set(Conventions.CANDIDATES, lexical.size());
            }
        }
        float[] queryVector = null;
        List<RankedArticle> vector = List.of();
        if (mode.usesVectors()) {
            try (Step step = Step.start(tracer, "search.vectors")) {
                queryVector = embedQuery(q);
                vector = index.vector(queryVector, limits.legDepth());
                step.set(Conventions.CANDIDATES, vector.size());
            }
        }
        return new Retrieval(project, terms, queryVector, lexical, vector);
    }

    public SearchResponse search(String projectName, String query, Integer topK) {
        try (Step step = Step.start(tracer, "search")) {
            try {
                SearchResponse response = searchTraced(projectName, query, topK, step);
                step.set(Conventions.HITS, response.results().size());
                return response;
            } catch (RuntimeException e) {
                step.failed(e);
                throw e;
            }
        }
    }

    private SearchResponse searchTraced(String projectName, String query, Integer topK, Step search) {
        Project project = catalog.get(projectName);
        String q = validateQuery(query);
        int k = validateTopK(topK);
        ProjectIndex index = project.index();
        RetrievalMode mode = project.mode();
        search.set(Conventions.PROJECT, project.name()).set(Conventions.RETRIEVAL_MODE, mode.wireName()).set(Conventions.TOP_K, k);

        Retrieval retrieval = retrieve(project, q);
        QueryTerms terms = retrieval.terms();
        float[] queryVector = retrieval.queryVector();
        List<RankedArticle> lexical = retrieval.lexical();
        List<RankedArticle> vector = retrieval.vector();

        List<ScoreFusion.Fused> candidates;
        double[] relevance;
        try (Step step = Step.start(tracer, "search.fusion")) {
            float[] qv = queryVector;
            candidates = !mode.usesLexical() ? ScoreFusion.single(vector, limits.candidates())
                    : qv == null ? ScoreFusion.single(lexical, limits.candidates())
                    : ScoreFusion.keepLegLeaders(ScoreFusion.fuse(lexical, vector, position -> index.cosine(qv, position),
                            ScoreFusion.LEXICAL_WEIGHT, limits.candidates()), lexical, vector);
            relevance = new double[candidates.size()];
            for (int i = 0; i < candidates.size(); i++) {
                relevance[i] = relevance(mode, project.cosineEvidence(), index, terms, qv, candidates.get(i).position());
            }
            step.set(Conventions.CANDIDATES, candidates.size());
        }
        List<Integer> order = rerank(project, q, candidates, relevance);

        // One decision per query: the best evidence among the candidates opens or closes the gate;
        // when it opens, the ranked top_k are returned whatever each one's own relevance.
        RelevanceGate.Outcome outcome;
        try (Step step = Step.start(tracer, "search.gate")) {
            double best = 0;
            for (double r : relevance) {
                best = Math.max(best, r);
            }
            outcome = project.gate().judge(best);
            step.set(Conventions.GATE_BEST, best).set(Conventions.GATE_PASSED, outcome.passed());
        }
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

    /** The query's embedding: an "embeddings" operation of the GenAI semantic conventions. */
    private float[] embedQuery(String q) {
        TextEmbedder model = embedder.get();
        try (Step step = Step.start(tracer, "embeddings " + model.name())) {
            step.set(Conventions.GEN_AI_OPERATION_NAME, "embeddings").set(Conventions.GEN_AI_REQUEST_MODEL, model.name());
            return model.embedQuery(q);
        }
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
