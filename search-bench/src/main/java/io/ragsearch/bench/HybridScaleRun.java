package io.ragsearch.bench;

import io.ragsearch.corpus.Corpus;
import io.ragsearch.corpus.Document;
import io.ragsearch.embed.TextEmbedder;
import io.ragsearch.index.HnswVectors;
import io.ragsearch.index.IndexBuilder;
import io.ragsearch.index.Language;
import io.ragsearch.index.ProjectIndex;
import io.ragsearch.index.VectorMatrix;
import io.ragsearch.index.VectorSearchSettings;
import io.ragsearch.metrics.ProcessMemory;
import io.ragsearch.search.CosineEvidence;
import io.ragsearch.search.Project;
import io.ragsearch.search.ProjectCatalog;
import io.ragsearch.search.ProjectSettings;
import io.ragsearch.search.RetrievalMode;
import io.ragsearch.search.SearchLimits;
import io.ragsearch.search.SearchService;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Hybrid search through the server's SearchService over a large corpus: the statutes' text
 * replicated (distinct document ids) to {@code n} articles for the lexical leg, the synthetic
 * vectors of the same size for the vector leg (the graph reopened from where the synthetic run
 * persisted it, else built), queries the eval questions embedded by the real model.
 */
final class HybridScaleRun {

    record Result(int articles, double graphSeconds, boolean graphReopened, double lexicalBuildSeconds, double lexicalBuildCpuSeconds,
                  long rssBytes, long peakRssBytes, long heapBytes, long lexicalHeapBytes,
                  EmbeddingReport.Latency embedding, EmbeddingReport.Latency vectorLeg, EmbeddingReport.Latency lexical,
                  EmbeddingReport.Latency hybrid) {
    }

    private static final int WARM_UP_QUERIES = 10;

    private HybridScaleRun() {
    }

    static Result measure(StatuteVectors statutes, VectorMatrix matrix, VectorSearchSettings settings, Path graphDir, String key)
            throws IOException {
        int n = matrix.rows();
        Corpus corpus = replicated(statutes.corpus(), n);
        long g0 = System.nanoTime();
        HnswVectors graph = HnswVectors.openIfCurrent(matrix, settings, graphDir, key);
        boolean reopened = graph != null;
        if (graph == null) {
            graph = HnswVectors.build(matrix, settings, graphDir, key);
        }
        double graphSeconds = (System.nanoTime() - g0) / 1e9;
        // The heap before the lexical side (the vectors, the corpus) and after it: what the lexical index holds.
        long h0 = MappedMemory.heapUsed();
        long l0 = System.nanoTime();
        long c0 = CpuTime.process();
        try (ProjectIndex index = IndexBuilder.build(corpus, Language.KOREAN, graph)) {
            double lexicalBuild = (System.nanoTime() - l0) / 1e9;
            double lexicalBuildCpu = (CpuTime.process() - c0) / 1e9;
            long lexicalHeap = MappedMemory.heapUsed() - h0;
            TextEmbedder embedder = statutes.embedder();
            CosineEvidence evidence = CosineEvidence.forModel(embedder.name(), Language.KOREAN);
            ProjectCatalog catalog = new ProjectCatalog();
            // One index, two modes: the lexical figure is the same search without the vector leg.
            catalog.put(new Project("hybrid", "", corpus, index, RetrievalMode.HYBRID, "bench",
                    ProjectSettings.Retrieval.DEFAULTS.gate(RetrievalMode.HYBRID, false, evidence), List.of(), null, evidence));
            catalog.put(new Project("lexical", "", corpus, index, RetrievalMode.LEXICAL, "bench",
                    ProjectSettings.Retrieval.DEFAULTS.gate(RetrievalMode.LEXICAL, false, CosineEvidence.RAW), List.of(), null,
                    CosineEvidence.RAW));
            SearchService search = new SearchService(catalog, embedder, SearchLimits.DEFAULTS);
            int depth = SearchLimits.DEFAULTS.legDepth();
            List<String> queries = statutes.queries();
            for (String q : queries.subList(0, Math.min(WARM_UP_QUERIES, queries.size()))) {
                index.vector(embedder.embedQuery(q), depth);
                search.search("hybrid", q, null);
                search.search("lexical", q, null);
            }
            List<Double> embedding = new ArrayList<>();
            List<Double> vectorLeg = new ArrayList<>();
            List<Double> lexical = new ArrayList<>();
            List<Double> hybrid = new ArrayList<>();
            for (int i = 0; i < queries.size(); i++) {
                String q = queries.get(i);
                // Which search goes first alternates, so both meet the same moments of a shared machine.
                boolean hybridFirst = i % 2 == 0;
                if (hybridFirst) {
                    hybrid.add(timeMs(() -> search.search("hybrid", q, null)));
                }
                long e0 = System.nanoTime();
                float[] qv = embedder.embedQuery(q);
                embedding.add((System.nanoTime() - e0) / 1e6);
                vectorLeg.add(timeMs(() -> index.vector(qv, depth)));
                lexical.add(timeMs(() -> search.search("lexical", q, null)));
                if (!hybridFirst) {
                    hybrid.add(timeMs(() -> search.search("hybrid", q, null)));
                }
            }
            return new Result(n, graphSeconds, reopened, lexicalBuild, lexicalBuildCpu, ProcessMemory.residentBytes(),
                    ProcessMemory.peakResidentBytes(), MappedMemory.heapUsed(), lexicalHeap,
                    EmbeddingReport.Latency.of(embedding), EmbeddingReport.Latency.of(vectorLeg), EmbeddingReport.Latency.of(lexical),
                    EmbeddingReport.Latency.of(hybrid));
        }
    }

    private static double timeMs(Runnable r) {
        long t0 = System.nanoTime();
        r.run();
        return (System.nanoTime() - t0) / 1e6;
    }

    /** The corpus's documents repeated under distinct ids until {@code n} live articles, cut there. */
    static Corpus replicated(Corpus base, int n) {
        int perCopy = (int) base.documents().stream().flatMap(d -> d.articles().stream()).filter(a -> !a.deleted()).count();
        if (perCopy == 0) {
            throw new IllegalArgumentException("the corpus has no live articles to replicate");
        }
        List<Document> docs = new ArrayList<>();
        for (int copy = 0; (long) copy * perCopy < n; copy++) {
            for (Document d : base.documents()) {
                docs.add(new Document(d.id() + "~" + copy, d.title(), d.sha256(), d.articles()));
            }
        }
        return EmbeddingBench.firstArticles(new Corpus(base.project(), docs, base.version() + "x" + n), n);
    }
}
