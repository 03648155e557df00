package io.ragsearch.eval;

import io.ragsearch.corpus.Article;
import io.ragsearch.corpus.Document;
import io.ragsearch.index.Language;
import io.ragsearch.query.Tokens;
import io.ragsearch.search.Project;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.ko.KoreanAnalyzer;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LogByteSizeMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * The plain baseline every ranking change is compared with: Lucene BM25 (k1 1.2, b 0.75) over
 * the same live articles, title and body as two fields, the analysed query as one OR query,
 * Lucene's stock Nori analyzer for Korean and English analyzer otherwise, and nothing else —
 * no gate (it never refuses), no boosts, no labels, no vectors.
 */
public final class Bm25Baseline implements SearchBackend {

    private final Map<String, ProjectBaseline> projects = new HashMap<>();

    public Bm25Baseline(Iterable<Project> projects) throws IOException {
        for (Project p : projects) {
            this.projects.put(p.name(), new ProjectBaseline(p));
        }
    }

    @Override
    public String name() {
        return "bm25 baseline";
    }

    @Override
    public Answer search(String project, String query, int topK) throws IOException {
        ProjectBaseline b = projects.get(project);
        if (b == null) {
            throw new EvalException("the baseline has no project '" + project + "'");
        }
        return new Answer(b.search(query, topK), false, 0);
    }

    @Override
    public void close() throws IOException {
        for (ProjectBaseline b : projects.values()) {
            b.close();
        }
    }

    private static final class ProjectBaseline implements AutoCloseable {
        private final Analyzer analyzer;
        private final DirectoryReader reader;
        private final IndexSearcher searcher;
        private final List<ArticleRef> refs = new ArrayList<>();

        ProjectBaseline(Project project) throws IOException {
            analyzer = project.index().language() == Language.KOREAN ? new KoreanAnalyzer() : new EnglishAnalyzer();
            ByteBuffersDirectory dir = new ByteBuffersDirectory();
            IndexWriterConfig config = new IndexWriterConfig(analyzer).setSimilarity(new BM25Similarity(1.2f, 0.75f))
                    .setMergePolicy(new LogByteSizeMergePolicy());
            try (IndexWriter writer = new IndexWriter(dir, config)) {
                for (Document d : project.corpus().documents()) {
                    for (Article a : d.articles()) {
                        if (a.deleted()) {
                            continue;
                        }
                        org.apache.lucene.document.Document doc = new org.apache.lucene.document.Document();
                        doc.add(new TextField("title", a.title(), Field.Store.NO));
                        doc.add(new TextField("body", a.body(), Field.Store.NO));
                        writer.addDocument(doc);
                        refs.add(new ArticleRef(d.id(), a.label()));
                    }
                }
                // One segment merged from adjacent ones: doc ids are insertion positions, which index refs.
                writer.forceMerge(1);
            }
            reader = DirectoryReader.open(dir);
            searcher = new IndexSearcher(reader);
            searcher.setSimilarity(new BM25Similarity(1.2f, 0.75f));
        }

        List<ArticleRef> search(String query, int topK) throws IOException {
            BooleanQuery.Builder q = new BooleanQuery.Builder();
            // Two clauses a term: stay under Lucene's clause limit however many distinct words a query has.
            for (String term : Tokens.terms(analyzer, "body", query).stream().limit(IndexSearcher.getMaxClauseCount() / 2).toList()) {
                q.add(new TermQuery(new Term("title", term)), BooleanClause.Occur.SHOULD);
                q.add(new TermQuery(new Term("body", term)), BooleanClause.Occur.SHOULD);
            }
            List<ArticleRef> out = new ArrayList<>();
            for (ScoreDoc hit : searcher.search(q.build(), topK).scoreDocs) {
                out.add(refs.get(hit.doc));
            }
            return out;
        }

        @Override
        public void close() throws IOException {
            reader.close();
            analyzer.close();
        }
    }
}
