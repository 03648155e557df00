package io.ragsearch.index;

import io.ragsearch.corpus.ArticleLabels;
import io.ragsearch.embed.Vectors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;

/**
 * The searchable form of one project's corpus: a Lucene index (BM25) over the live articles,
 * their embeddings when the vector leg is on, and each article's analysed terms for the
 * relevance gate. Immutable once built; a new corpus version gets a new instance.
 */
public final class ProjectIndex implements AutoCloseable {

    static final String FIELD_TITLE = "title";
    static final String FIELD_BODY = "body";
    static final String FIELD_DOCUMENT_TITLE = "doctitle";
    static final String FIELD_LABEL = "label";

    private static final Pattern KOREAN_LABEL = Pattern.compile("제\\s*\\d+\\s*조(?:\\s*의\\s*\\d+)?");
    private static final Pattern ENGLISH_LABEL = Pattern.compile("(?i)\\b(?:article|section)\\s+\\d+(?:-\\d+)?[a-z]?\\b");
    /** An article named in the question is very likely what the caller wants. */
    private static final float LABEL_BOOST = 4f;
    private static final float TITLE_BOOST = 2f;

    private final Language language;
    private final Analyzer analyzer;
    private final DirectoryReader reader;
    private final IndexSearcher searcher;
    private final List<IndexedArticle> articles;
    private final List<Set<String>> termsByArticle;
    private final float[][] vectors;

    ProjectIndex(Language language, Analyzer analyzer, DirectoryReader reader, List<IndexedArticle> articles,
                 List<Set<String>> termsByArticle, float[][] vectors) {
        this.language = language;
        this.analyzer = analyzer;
        this.reader = reader;
        this.searcher = new IndexSearcher(reader);
        this.articles = List.copyOf(articles);
        this.termsByArticle = List.copyOf(termsByArticle);
        this.vectors = vectors;
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

    /** The query as the lexical leg and the gate see it: analysed terms plus any article labels named. */
    public QueryTerms analyze(String query) {
        List<String> labels = new ArrayList<>();
        String rest = query;
        for (Pattern p : new Pattern[] {KOREAN_LABEL, ENGLISH_LABEL}) {
            Matcher m = p.matcher(rest);
            while (m.find()) {
                labels.add(ArticleLabels.normalize(m.group()));
            }
            // A label is matched as a whole; its pieces ("16", "조") are no evidence on their own.
            rest = m.replaceAll(" ");
        }
        List<String> terms = Analyzers.termList(analyzer, FIELD_BODY, rest);
        // Weights once per query: every candidate's coverage uses the same ones.
        return new QueryTerms(terms, labels, idfs(FIELD_BODY, terms), idfs(FIELD_LABEL, labels));
    }

    public List<RankedArticle> lexical(QueryTerms query, int limit) {
        if (query.isEmpty()) {
            return List.of();
        }
        BooleanQuery.Builder builder = new BooleanQuery.Builder();
        for (String term : query.terms()) {
            builder.add(new TermQuery(new Term(FIELD_BODY, term)), BooleanClause.Occur.SHOULD);
            builder.add(new BoostQuery(new TermQuery(new Term(FIELD_TITLE, term)), TITLE_BOOST), BooleanClause.Occur.SHOULD);
            builder.add(new TermQuery(new Term(FIELD_DOCUMENT_TITLE, term)), BooleanClause.Occur.SHOULD);
        }
        for (String label : query.labels()) {
            builder.add(new BoostQuery(new TermQuery(new Term(FIELD_LABEL, label)), LABEL_BOOST), BooleanClause.Occur.SHOULD);
        }
        Query q = builder.build();
        try {
            ScoreDoc[] hits = searcher.search(q, limit).scoreDocs;
            List<RankedArticle> out = new ArrayList<>(hits.length);
            for (ScoreDoc hit : hits) {
                out.add(new RankedArticle(hit.doc, hit.score));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("in-memory index read failed", e);
        } catch (IndexSearcher.TooManyClauses e) {
            throw new IllegalArgumentException("query has too many distinct terms", e);
        }
    }

    /** Articles by cosine similarity to a normalised query embedding. */
    public List<RankedArticle> vector(float[] queryVector, int limit) {
        if (vectors == null) {
            return List.of();
        }
        List<RankedArticle> all = new ArrayList<>(vectors.length);
        for (int i = 0; i < vectors.length; i++) {
            all.add(new RankedArticle(i, Vectors.dot(queryVector, vectors[i])));
        }
        all.sort(Comparator.comparingDouble((RankedArticle r) -> r.score()).reversed());
        return all.subList(0, Math.min(limit, all.size()));
    }

    public float cosine(float[] queryVector, int position) {
        return vectors == null ? 0f : Vectors.dot(queryVector, vectors[position]);
    }

    /**
     * The share of the query's information found in the article: IDF-weighted query-term
     * coverage in [0, 1]. It needs no corpus-specific calibration (1 means every informative
     * query term occurs in the article), which is why the relevance gate uses it.
     */
    public double coverage(QueryTerms query, int position) {
        Set<String> articleTerms = termsByArticle.get(position);
        String articleLabel = ArticleLabels.normalize(articles.get(position).article().label());
        double total = 0;
        double matched = 0;
        for (int i = 0; i < query.terms().size(); i++) {
            total += query.termIdf()[i];
            if (articleTerms.contains(query.terms().get(i))) {
                matched += query.termIdf()[i];
            }
        }
        for (int i = 0; i < query.labels().size(); i++) {
            total += query.labelIdf()[i];
            if (query.labels().get(i).equals(articleLabel)) {
                matched += query.labelIdf()[i];
            }
        }
        return total == 0 ? 0 : matched / total;
    }

    private double[] idfs(String field, List<String> terms) {
        double[] out = new double[terms.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = idf(field, terms.get(i));
        }
        return out;
    }

    /** BM25's IDF; a term the corpus lacks counts as the rarest possible term, not infinitely rare. */
    private double idf(String field, String term) {
        try {
            int n = reader.numDocs();
            int df = Math.max(1, reader.docFreq(new Term(field, term)));
            return Math.log(1 + (n - df + 0.5) / (df + 0.5));
        } catch (IOException e) {
            throw new UncheckedIOException("in-memory index read failed", e);
        }
    }

    @Override
    public void close() {
        try {
            reader.close();
        } catch (IOException e) {
            // in-memory: nothing to recover
        }
        analyzer.close();
    }

    /** Analysed query terms and the article labels it names ("제60조"), each with its IDF weight. */
    public record QueryTerms(List<String> terms, List<String> labels, double[] termIdf, double[] labelIdf) {
        public boolean isEmpty() {
            return terms.isEmpty() && labels.isEmpty();
        }

        @Override
        public String toString() {
            return Arrays.toString(terms.toArray()) + " labels=" + labels;
        }
    }
}
