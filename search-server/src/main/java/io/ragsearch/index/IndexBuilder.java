package io.ragsearch.index;

import io.ragsearch.corpus.Article;
import io.ragsearch.corpus.ArticleLabels;
import io.ragsearch.corpus.Corpus;
import io.ragsearch.corpus.Document;
import io.ragsearch.embed.TextEmbedder;
import io.ragsearch.query.QueryAnalyzer;
import io.ragsearch.query.Thesaurus;
import io.ragsearch.query.Tokens;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LogByteSizeMergePolicy;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.ByteBuffersDirectory;

/** Builds a {@link ProjectIndex} from a corpus. Deleted articles are not indexed: they are never evidence. */
public final class IndexBuilder {

    private IndexBuilder() {
    }

    /**
     * @param embedder the embedding model, or null for a lexical-only index
     * @param storedVectors embeddings already computed for the live articles in corpus order
     *                      (from the database), or null to compute them here
     */
    public static ProjectIndex build(Corpus corpus, Language language, TextEmbedder embedder, float[][] storedVectors)
            throws IOException {
        return build(corpus, language, embedder, storedVectors, VectorSearchSettings.DEFAULTS);
    }

    /** As {@link #build(Corpus, Language, TextEmbedder, float[][])}, with the vector leg's search settings. */
    public static ProjectIndex build(Corpus corpus, Language language, TextEmbedder embedder, float[][] storedVectors,
                                     VectorSearchSettings vectorSearch) throws IOException {
        return build(corpus, language, articles -> {
            float[][] vectors = storedVectors;
            if (vectors == null && embedder != null) {
                vectors = embedder.embedPassages(articles.stream().map(IndexBuilder::embeddingText).toList());
            }
            if (vectors != null && vectors.length != articles.size()) {
                // Checked before the index is built: a graph over the wrong vectors is minutes lost.
                throw new IOException("stored embeddings (" + vectors.length + ") do not match live articles (" + articles.size() + ")");
            }
            return vectors == null ? null : VectorIndex.of(vectors, vectorSearch);
        });
    }

    /**
     * With a vector index made elsewhere (e.g. a graph reopened from disk) over the live articles
     * in corpus order; it is closed with the project index.
     */
    public static ProjectIndex build(Corpus corpus, Language language, VectorIndex vectors) throws IOException {
        return build(corpus, language, articles -> vectors);
    }

    /** What makes the vector index once the live articles are known; may answer null (lexical only). */
    private interface VectorSource {
        VectorIndex over(List<IndexedArticle> articles) throws IOException;
    }

    private static ProjectIndex build(Corpus corpus, Language language, VectorSource vectorSource) throws IOException {
        Analyzer analyzer = Analyzers.forLanguage(language);
        // Character bigrams only where words run together (Korean compounds); English has its stemmer.
        Analyzer bigrams = language == Language.KOREAN ? Analyzers.bigrams() : null;
        Analyzer perField = bigrams == null ? analyzer : new PerFieldAnalyzerWrapper(analyzer,
                Map.of(ProjectIndex.FIELD_BODY_BIGRAM, bigrams, ProjectIndex.FIELD_TITLE_BIGRAM, bigrams));
        ByteBuffersDirectory directory = new ByteBuffersDirectory();
        List<IndexedArticle> articles = new ArrayList<>();
        ArticleTerms.Builder terms = new ArticleTerms.Builder();
        try (IndexWriter writer = new IndexWriter(directory, writerConfig(perField))) {
            for (Document d : corpus.documents()) {
                for (Article a : d.articles()) {
                    if (a.deleted()) {
                        continue;
                    }
                    org.apache.lucene.document.Document doc = new org.apache.lucene.document.Document();
                    doc.add(new TextField(ProjectIndex.FIELD_TITLE, a.title(), Field.Store.NO));
                    doc.add(new TextField(ProjectIndex.FIELD_BODY, a.body(), Field.Store.NO));
                    doc.add(new StringField(ProjectIndex.FIELD_LABEL, ArticleLabels.normalize(a.label()), Field.Store.NO));
                    doc.add(new StringField(ProjectIndex.FIELD_DOCUMENT, d.id(), Field.Store.NO));
                    if (bigrams != null) {
                        doc.add(new TextField(ProjectIndex.FIELD_TITLE_BIGRAM, a.title(), Field.Store.NO));
                        doc.add(new TextField(ProjectIndex.FIELD_BODY_BIGRAM, a.body(), Field.Store.NO));
                    }
                    writer.addDocument(doc);
                    articles.add(new IndexedArticle(d, a));
                    terms.add(Tokens.terms(analyzer, ProjectIndex.FIELD_BODY, a.searchableText()));
                }
            }
            writer.forceMerge(1);
        }
        IndexSearcher searcher = new IndexSearcher(DirectoryReader.open(directory));
        // English has no built-in thesaurus: its paraphrases are the embedding model's job.
        Thesaurus thesaurus = language == Language.KOREAN ? Thesaurus.builtinKorean(analyzer) : Thesaurus.empty();
        QueryAnalyzer queries = new QueryAnalyzer(analyzer, bigrams, thesaurus, articles.stream().map(IndexedArticle::document).toList(),
                new IndexStatistics(searcher));
        ProjectIndex lexical = new ProjectIndex(language, queries, searcher, articles, terms.build(), null);
        VectorIndex vectors;
        try {
            vectors = vectorSource.over(articles);
        } catch (IOException | RuntimeException e) {
            lexical.close();
            throw e;
        }
        if (vectors == null) {
            return lexical;
        }
        // The lexical view is only a step here: closing it leaves the shared side to the index returned.
        try (lexical) {
            return lexical.withVectors(vectors);
        }
    }

    /**
     * One segment merged only from adjacent segments: Lucene doc ids then equal the insertion
     * positions, which the article, term and vector arrays rely on.
     */
    private static IndexWriterConfig writerConfig(Analyzer analyzer) {
        IndexWriterConfig config = new IndexWriterConfig(analyzer);
        config.setMergePolicy(new LogByteSizeMergePolicy());
        return config;
    }

    /** What is embedded for each live article, in index order. */
    public static List<String> embeddingTexts(Corpus corpus) {
        List<String> texts = new ArrayList<>();
        for (Document d : corpus.documents()) {
            for (Article a : d.articles()) {
                if (!a.deleted()) {
                    texts.add(embeddingText(new IndexedArticle(d, a)));
                }
            }
        }
        return texts;
    }

    /** What is embedded for an article: document title for context, then the article. */
    public static String embeddingText(IndexedArticle ia) {
        return ia.document().title() + " — " + ia.article().searchableText();
    }
}
