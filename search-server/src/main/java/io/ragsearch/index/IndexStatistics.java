package io.ragsearch.index;

import io.ragsearch.query.CorpusStatistics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PhraseQuery;

/** The corpus statistics query analysis reads, answered by the project's Lucene index. */
final class IndexStatistics implements CorpusStatistics {

    private final IndexSearcher searcher;

    IndexStatistics(IndexSearcher searcher) {
        this.searcher = searcher;
    }

    @Override
    public int articles() {
        return searcher.getIndexReader().numDocs();
    }

    @Override
    public double termIdf(String term) {
        return idf(ProjectIndex.FIELD_BODY, term);
    }

    @Override
    public double labelIdf(String label) {
        return idf(ProjectIndex.FIELD_LABEL, label);
    }

    @Override
    public boolean writesInARow(List<String> bigrams) {
        try {
            BooleanQuery.Builder either = new BooleanQuery.Builder();
            for (String field : new String[] {ProjectIndex.FIELD_BODY_BIGRAM, ProjectIndex.FIELD_TITLE_BIGRAM}) {
                PhraseQuery.Builder phrase = new PhraseQuery.Builder();
                for (int i = 0; i < bigrams.size(); i++) {
                    phrase.add(new Term(field, bigrams.get(i)), i);
                }
                either.add(phrase.build(), BooleanClause.Occur.SHOULD);
            }
            return searcher.count(either.build()) > 0;
        } catch (IOException e) {
            throw new UncheckedIOException("in-memory index read failed", e);
        }
    }

    /** BM25's IDF; a term the corpus lacks counts as the rarest possible term, not infinitely rare. */
    private double idf(String field, String term) {
        try {
            IndexReader reader = searcher.getIndexReader();
            int n = reader.numDocs();
            int df = Math.max(1, reader.docFreq(new Term(field, term)));
            return Math.log(1 + (n - df + 0.5) / (df + 0.5));
        } catch (IOException e) {
            throw new UncheckedIOException("in-memory index read failed", e);
        }
    }
}
