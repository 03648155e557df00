package io.ragsearch.index;

import io.ragsearch.corpus.ArticleLabels;
import io.ragsearch.query.CorpusStatistics;
import io.ragsearch.query.QueryAnalyzer;
import io.ragsearch.query.QueryTerms;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;

/**
 * The searchable form of one project's corpus: a Lucene index (BM25) over the live articles,
 * their embeddings when the vector leg is on, and each article's analysed terms for the
 * relevance gate; it scores analysed queries ({@link QueryAnalyzer} reads them, with this
 * index's statistics). Immutable once built; a new corpus version gets a new instance.
 */
public final class ProjectIndex implements AutoCloseable {

    static final String FIELD_TITLE = "title";
    static final String FIELD_BODY = CorpusStatistics.BODY_FIELD;
    static final String FIELD_LABEL = "label";
    static final String FIELD_DOCUMENT = "document";
    static final String FIELD_BODY_BIGRAM = CorpusStatistics.BIGRAM_FIELD;
    static final String FIELD_TITLE_BIGRAM = "title2";

    /*
     * Lexical weights, each chosen on the Korean dev set (eval/ko-statutes-dev.yaml) and checked
     * on the held-out set; docs/benchmarks.md has every step's figures.
     */
    /** An article named in the question ("제26조") is very likely what the caller wants. */
    private static final float LABEL_BOOST = 4f;
    /** Title matches weigh as body matches: ×2 (the first weight) cost MRR@10 .771 → .762 on the dev set. */
    private static final float TITLE_BOOST = 1f;
    /**
     * A title holding all of the question's informative words within two positions of each
     * other earns one more title match: MRR@10 .742 → .750 on the dev set, and "연차 유급휴가는
     * 며칠인가요" finds 제60조 (연차 유급휴가) before 제62조 (유급휴가의 대체), whose short body repeats the words.
     */
    private static final int TITLE_PHRASE_SLOP = 2;
    /** A question naming a document's title ("근로기준법에서 …") prefers that document's articles. */
    private static final float NAMED_DOCUMENT_BOOST = 2f;
    /**
     * Thesaurus terms count less than the caller's own words: 0.6 took paraphrase MRR@10 from
     * .144 to .606 on the dev set; 1.0 reached .693 there but lost on the held-out set.
     */
    private static final float EXPANSION_WEIGHT = 0.6f;
    /** Character bigrams catch compounds Nori splits otherwise ("중징계"); more than a hint costs paraphrases. */
    private static final float BIGRAM_WEIGHT = 0.15f;
    /**
     * Evidence kept per concept the question names that no article holds ("실업급여",
     * "국민연금"): a third off, which refused 4 more of the dev set's 20 unanswerable questions
     * at the cost of 1 of its 66 answerable ones.
     */
    static final double UNKNOWN_CONCEPT_FACTOR = 2.0 / 3;

    private final Language language;
    private final QueryAnalyzer queryAnalyzer;
    private final IndexSearcher searcher;
    private final List<IndexedArticle> articles;
    private final ArticleTerms terms;
    private final VectorIndex vectors;
    private final SharedLexical lexicalOwner;
    private final AtomicBoolean closed = new AtomicBoolean();

    ProjectIndex(Language language, QueryAnalyzer queryAnalyzer, IndexSearcher searcher, List<IndexedArticle> articles,
                 ArticleTerms terms, VectorIndex vectors) {
        this(language, queryAnalyzer, searcher, articles, terms, vectors,
                new SharedLexical(searcher.getIndexReader(), queryAnalyzer));
    }

    private ProjectIndex(Language language, QueryAnalyzer queryAnalyzer, IndexSearcher searcher, List<IndexedArticle> articles,
                         ArticleTerms terms, VectorIndex vectors, SharedLexical lexicalOwner) {
        this.language = language;
        this.queryAnalyzer = queryAnalyzer;
        this.searcher = searcher;
        this.articles = List.copyOf(articles);
        this.terms = terms;
        this.vectors = vectors;
        this.lexicalOwner = lexicalOwner;
    }

    /**
     * This index's lexical side (Lucene index, articles, terms, query analysis: not built again)
     * with {@code vectors} over its live articles: how a project served lexical-first gains its
     * vector leg. The two indexes are closed independently; the lexical side closes with the
     * last of them, {@code vectors} with the new one.
     *
     * @throws IOException when the vectors are not one per live article (they are closed then)
     */
    public ProjectIndex withVectors(VectorIndex vectors) throws IOException {
        if (this.vectors != null) {
            throw new IllegalStateException("this index already has its vectors");
        }
        if (vectors.size() != articles.size()) {
            int size = vectors.size();
            vectors.close();
            throw new IOException("vector index (" + size + ") does not match live articles (" + articles.size() + ")");
        }
        return new ProjectIndex(language, queryAnalyzer, searcher, articles, terms, vectors, lexicalOwner.acquire());
    }

    public Language language() {
        return language;
    }

    public int size() {
        return articles.size();
    }

    public IndexedArticle article(int position) {
        return articles.get(position);
    }

    public boolean hasVectors() {
        return vectors != null;
    }

    /** How questions to this corpus version are read (its statistics and named documents are this index's). */
    public QueryAnalyzer queryAnalyzer() {
        return queryAnalyzer;
    }

    public List<RankedArticle> lexical(QueryTerms query, int limit) {
        if (query.isEmpty() && query.bigrams().isEmpty()) {
            return List.of();
        }
        BooleanQuery.Builder builder = new BooleanQuery.Builder();
        for (String term : query.terms()) {
            builder.add(new TermQuery(new Term(FIELD_BODY, term)), BooleanClause.Occur.SHOULD);
            builder.add(boost(new TermQuery(new Term(FIELD_TITLE, term)), TITLE_BOOST), BooleanClause.Occur.SHOULD);
        }
        if (query.terms().size() >= 2) {
            // Every informative word in the title, near each other: the article is about exactly this.
            PhraseQuery.Builder phrase = new PhraseQuery.Builder().setSlop(TITLE_PHRASE_SLOP);
            for (String term : query.terms()) {
                phrase.add(new Term(FIELD_TITLE, term));
            }
            builder.add(phrase.build(), BooleanClause.Occur.SHOULD);
        }
        for (String term : query.expansions()) {
            builder.add(boost(new TermQuery(new Term(FIELD_BODY, term)), EXPANSION_WEIGHT), BooleanClause.Occur.SHOULD);
            builder.add(boost(new TermQuery(new Term(FIELD_TITLE, term)), EXPANSION_WEIGHT * TITLE_BOOST), BooleanClause.Occur.SHOULD);
        }
        for (QueryTerms.Slot label : query.labels()) {
            builder.add(boost(new TermQuery(new Term(FIELD_LABEL, label.term())), LABEL_BOOST), BooleanClause.Occur.SHOULD);
        }
        for (String id : query.documents()) {
            builder.add(boost(new TermQuery(new Term(FIELD_DOCUMENT, id)), NAMED_DOCUMENT_BOOST), BooleanClause.Occur.SHOULD);
        }
        // Empty where the project has no bigram fields (English).
        for (String b : query.bigrams()) {
            builder.add(boost(new TermQuery(new Term(FIELD_BODY_BIGRAM, b)), BIGRAM_WEIGHT), BooleanClause.Occur.SHOULD);
            builder.add(boost(new TermQuery(new Term(FIELD_TITLE_BIGRAM, b)), BIGRAM_WEIGHT * TITLE_BOOST),
                    BooleanClause.Occur.SHOULD);
        }
        return run(builder.build(), limit);
    }

    private static Query boost(Query q, float weight) {
        return weight == 1f ? q : new BoostQuery(q, weight);
    }

    private List<RankedArticle> run(Query q, int limit) {
        try {
            ScoreDoc[] hits = searcher.search(q, limit).scoreDocs;
            List<RankedArticle> out = new ArrayList<>(hits.length);
            for (ScoreDoc hit : hits) {
                out.add(new RankedArticle(hit.doc, hit.score));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("in-memory index read failed", e);
        }
    }

    /**
     * The {@code limit} articles most similar to a normalised query embedding, each with its exact
     * cosine: an exact scan on small corpora, the HNSW graph on large ones ({@link VectorSearchSettings}).
     */
    public List<RankedArticle> vector(float[] queryVector, int limit) {
        return vectors == null ? List.of() : vectors.nearest(queryVector, limit);
    }

    public float cosine(float[] queryVector, int position) {
        return vectors == null ? 0f : vectors.cosine(queryVector, position);
    }

    /** True when the vector leg searches the approximate graph rather than scanning. */
    public boolean approximateVectors() {
        return vectors != null && vectors.approximate();
    }

    /**
     * The share of the query's information found in the article: IDF-weighted coverage of the
     * query's slots (a term or one of its thesaurus alternatives, a label, a named document) in
     * [0, 1]. It needs no corpus-specific calibration (1 means every informative query term
     * occurs in the article), which is why the relevance gate uses it.
     */
    public double coverage(QueryTerms query, int position) {
        IndexedArticle article = articles.get(position);
        String articleLabel = ArticleLabels.normalize(article.article().label());
        double total = 0;
        double matched = 0;
        for (QueryTerms.Slot s : query.slots()) {
            total += s.idf();
            if (terms.contains(position, s.term()) || s.alternatives().stream().anyMatch(t -> terms.contains(position, t))) {
                matched += s.idf();
            }
        }
        for (QueryTerms.Slot s : query.labels()) {
            total += s.idf();
            if (s.term().equals(articleLabel)) {
                matched += s.idf();
            }
        }
        if (!query.documents().isEmpty()) {
            total += query.documentIdf();
            if (query.documents().contains(article.document().id())) {
                matched += query.documentIdf();
            }
        }
        double c = total == 0 ? 0 : matched / total;
        // A concept no article holds is what the question is about and what no article answers.
        return c * Math.pow(UNKNOWN_CONCEPT_FACTOR, query.unknownConcepts().size());
    }

    @Override
    public void close() {
        // Once per view: a second close must not release the shared lexical side for another view.
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (vectors != null) {
            vectors.close();
        }
        lexicalOwner.release();
    }
}
