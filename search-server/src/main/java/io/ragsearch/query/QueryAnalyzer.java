package io.ragsearch.query;

import io.ragsearch.corpus.ArticleLabels;
import io.ragsearch.corpus.Document;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.Analyzer;

/**
 * Turns a question into what the lexical leg and the relevance gate see ({@link QueryTerms}), in
 * steps: article labels named ("제76조의3", "Article 4") and document titles named are taken out
 * whole; the rest is analysed and question filler dropped; each informative term gets its IDF and
 * thesaurus alternatives; the thesaurus adds expansions; Korean gets character bigrams of the
 * informative words and the compounds no article writes ("국민연금") marked unknown. One per corpus
 * version: the named documents and the statistics are that version's.
 */
public final class QueryAnalyzer implements AutoCloseable {

    /**
     * Terms of one query that count: a 1000-character query can hold hundreds of distinct
     * terms, and Lucene refuses a query of more than 1024 clauses (several per term in the index).
     */
    public static final int MAX_QUERY_TERMS = 64;

    private static final Pattern KOREAN_LABEL = Pattern.compile("제\\s*\\d+\\s*조(?:\\s*의\\s*\\d+)?");
    private static final Pattern ENGLISH_LABEL = Pattern.compile("(?i)\\b(?:article|section)\\s+\\d+(?:-\\d+)?[a-z]?\\b");

    private final Analyzer analyzer;
    private final Analyzer bigramAnalyzer;
    private final Thesaurus thesaurus;
    private final List<NamedDocument> namedDocuments;
    private final CorpusStatistics statistics;

    /**
     * @param analyzer the project's language analyzer (closed with this)
     * @param bigramAnalyzer character bigrams where words run together (Korean), or null (closed with this)
     * @param documentOfEachArticle the document of each live article, in index order
     */
    public QueryAnalyzer(Analyzer analyzer, Analyzer bigramAnalyzer, Thesaurus thesaurus, List<Document> documentOfEachArticle,
                         CorpusStatistics statistics) {
        this.analyzer = analyzer;
        this.bigramAnalyzer = bigramAnalyzer;
        this.thesaurus = thesaurus;
        this.namedDocuments = NamedDocument.of(documentOfEachArticle);
        this.statistics = statistics;
    }

    public QueryTerms analyze(String query) {
        List<QueryTerms.Slot> labels = new ArrayList<>();
        String rest = labels(query, labels);
        Set<String> documents = new LinkedHashSet<>();
        int namedArticles = 0;
        for (NamedDocument d : namedDocuments) {
            Matcher m = d.pattern().matcher(rest);
            if (m.find()) {
                documents.add(d.id());
                namedArticles += d.articles();
                // The title is matched as a document; its words ("근로", "기준") would otherwise count against articles.
                rest = m.replaceAll(" ");
            }
        }
        List<QueryWords.Word> words = QueryWords.of(analyzer, CorpusStatistics.BODY_FIELD, rest);
        List<QueryTerms.Slot> slots = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (QueryWords.Word w : words) {
            if (w.informative() && seen.add(w.term()) && slots.size() < MAX_QUERY_TERMS) {
                slots.add(new QueryTerms.Slot(w.term(), statistics.termIdf(w.term()), thesaurus.alternatives(w.term())));
            }
        }
        List<String> terms = slots.stream().map(QueryTerms.Slot::term).toList();
        List<String> expansions = new ArrayList<>(thesaurus.expand(terms));
        List<String> bigrams = bigramAnalyzer == null ? List.of()
                : Tokens.termList(bigramAnalyzer, CorpusStatistics.BIGRAM_FIELD, QueryWords.informativeSpans(rest, words));
        double documentIdf = documents.isEmpty() ? 0
                : Math.log(1 + statistics.articles() / (double) Math.max(1, namedArticles));
        return new QueryTerms(slots, labels, documents, documentIdf, cap(bigrams), cap(expansions), unknownConcepts(rest, words));
    }

    /** Adds the labels the query names to {@code into}; returns the query without them. */
    private String labels(String query, List<QueryTerms.Slot> into) {
        String rest = query;
        for (Pattern p : new Pattern[] {KOREAN_LABEL, ENGLISH_LABEL}) {
            Matcher m = p.matcher(rest);
            while (m.find()) {
                String label = ArticleLabels.normalize(m.group());
                into.add(new QueryTerms.Slot(label, statistics.labelIdf(label), List.of()));
            }
            // A label is matched as a whole; its pieces ("16", "조") are no evidence on their own.
            rest = m.replaceAll(" ");
        }
        return rest;
    }

    /** Compounds the thesaurus does not explain and no article writes as the question does. */
    private List<String> unknownConcepts(String text, List<QueryWords.Word> words) {
        List<String> unknown = new ArrayList<>();
        if (bigramAnalyzer != null) {
            for (QueryWords.Compound c : QueryWords.compounds(text, words)) {
                if (unknown.size() < MAX_QUERY_TERMS && thesaurus.expand(c.terms()).isEmpty() && !written(c.text())) {
                    unknown.add(c.text());
                }
            }
        }
        return unknown;
    }

    private boolean written(String text) {
        List<String> grams = Tokens.list(bigramAnalyzer, CorpusStatistics.BIGRAM_FIELD, text);
        return grams.isEmpty() || statistics.writesInARow(grams);
    }

    private static List<String> cap(List<String> terms) {
        return terms.size() <= MAX_QUERY_TERMS ? terms : terms.subList(0, MAX_QUERY_TERMS);
    }

    @Override
    public void close() {
        analyzer.close();
        if (bigramAnalyzer != null) {
            bigramAnalyzer.close();
        }
    }
}
