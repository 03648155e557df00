package io.ragsearch.bench;

import io.ragsearch.corpus.Corpus;
import io.ragsearch.corpus.Document;
import io.ragsearch.index.IndexBuilder;
import io.ragsearch.index.Language;
import io.ragsearch.index.ProjectIndex;
import io.ragsearch.search.Project;
import io.ragsearch.search.ProjectCatalog;
import io.ragsearch.search.RelevanceGate;
import io.ragsearch.search.RetrievalMode;
import io.ragsearch.search.SearchLimits;
import io.ragsearch.search.SearchService;
import java.util.ArrayList;
import java.util.List;

/** Index build time and search latency as the corpus grows by replication (distinct document ids). */
final class ScalingRun {

    private ScalingRun() {
    }

    record Point(int multiple, int documents, int articles, double buildSeconds, double searchMeanMs) {
    }

    static Point measure(Corpus base, Language language, int multiple, List<String> queries) throws Exception {
        List<Document> docs = new ArrayList<>();
        for (int i = 0; i < multiple; i++) {
            for (Document d : base.documents()) {
                docs.add(new Document(d.id() + "~" + i, d.title(), d.sha256(), d.articles()));
            }
        }
        Corpus corpus = new Corpus(base.project(), docs, base.version() + "x" + multiple);
        long t0 = System.nanoTime();
        ProjectIndex index = IndexBuilder.build(corpus, language, null, null);
        double build = (System.nanoTime() - t0) / 1e9;
        ProjectCatalog catalog = new ProjectCatalog();
        catalog.put(new Project("scale", "", corpus, index, RetrievalMode.LEXICAL, "bench", new RelevanceGate(0.5), List.of(), null, io.ragsearch.search.CosineEvidence.RAW));
        SearchService search = new SearchService(catalog, null, SearchLimits.DEFAULTS);
        for (String q : queries) {
            search.search("scale", q, 5); // warm
        }
        int rounds = 5;
        long s0 = System.nanoTime();
        for (int r = 0; r < rounds; r++) {
            for (String q : queries) {
                search.search("scale", q, 5);
            }
        }
        double mean = (System.nanoTime() - s0) / 1e6 / (rounds * queries.size());
        index.close();
        return new Point(multiple, docs.size(), corpus.articleCount(), build, mean);
    }
}
