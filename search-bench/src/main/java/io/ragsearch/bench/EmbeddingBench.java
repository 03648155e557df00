package io.ragsearch.bench;

import io.ragsearch.config.ServerEnvironment;
import io.ragsearch.contract.BuiltinModels;
import io.ragsearch.corpus.Article;
import io.ragsearch.corpus.Corpus;
import io.ragsearch.corpus.CorpusLoader;
import io.ragsearch.corpus.Document;
import io.ragsearch.embed.EmbeddingModel;
import io.ragsearch.embed.ModelFiles;
import io.ragsearch.embed.ModelRegistry;
import io.ragsearch.embed.SessionSettings;
import io.ragsearch.embed.TextEmbedder;
import io.ragsearch.embed.TextTokenizer;
import io.ragsearch.eval.Question;
import io.ragsearch.eval.QuestionFile;
import io.ragsearch.index.IndexBuilder;
import io.ragsearch.index.Language;
import io.ragsearch.index.ProjectIndex;
import io.ragsearch.metrics.ProcessMemory;
import io.ragsearch.search.CosineEvidence;
import io.ragsearch.search.Project;
import io.ragsearch.search.ProjectCatalog;
import io.ragsearch.search.ProjectSettings;
import io.ragsearch.search.RetrievalMode;
import io.ragsearch.search.SearchLimits;
import io.ragsearch.search.SearchService;
import io.ragsearch.server.SettingsResolver;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The built-in multilingual embedding model's costs, measured in this process: its resident
 * memory, passage throughput through the server's TextEmbedder beside ONNX Runtime run bare on
 * the same token batches (and a check that both give the same vectors), query-embedding latency,
 * and search latency with and without the vector leg.
 */
@Command(name = "embedding", mixinStandardHelpOptions = true,
        description = {"Embedding model figures: RSS of the model, passages/s through the server vs raw ONNX Runtime at 1 thread "
                + "and at the core count, query-embedding and search latency p50/p95 (hybrid vs lexical) on the Korean statutes.",
                "Needs multilingual-e5-small (scripts/model/fetch-e5.sh). Exit status 1 when the two paths' vectors differ "
                        + "(cosine < " + EmbeddingReport.MIN_AGREEMENT + ")."})
public final class EmbeddingBench implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--ko", paramLabel = "DIR", description = "Korean statutes (default $RAGSEARCH_SHARED_CORPUS or ../shared/corpus/ko-statutes).")
    Path ko;

    @Option(names = "--articles", paramLabel = "N", description = "Embed only the first N live articles (default: all).")
    int articles;

    @Option(names = "--queries", paramLabel = "N", description = "Queries timed (default 100), taken in order from the question files.")
    int queries = 100;

    @Option(names = "--questions", paramLabel = "FILE", split = ",",
            description = "Question files whose queries are timed (default eval/ko-statutes-dev.yaml,eval/ko-statutes-holdout.yaml).")
    List<Path> questions = List.of(Path.of("eval/ko-statutes-dev.yaml"), Path.of("eval/ko-statutes-holdout.yaml"));

    @Option(names = "--reference", paramLabel = "DIR",
            description = "The model the default is compared with: speed side by side, vector agreement (default: "
                    + "multilingual-e5-small-q4/ beside the built-in, the 4-bit form fetch-e5.sh --form q4 writes).")
    Path reference;

    @Option(names = "--model", paramLabel = "DIR",
            description = "Measure the model in DIR (another form from fetch-e5.sh --form, with the built-in's settings) "
                    + "in place of the built-in default.")
    Path modelDir;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        EmbeddingModel model = installedE5();
        Machine machine = Machine.describe();
        Corpus corpus = firstArticles(new CorpusLoader(false, List.of("*.md")).load("ko-statutes", SharedStatutes.directory(ko)).corpus(),
                articles);
        List<String> texts = IndexBuilder.embeddingTexts(corpus);
        List<String> queryTexts = queryTexts();
        if (texts.isEmpty() || queryTexts.isEmpty()) {
            throw new IllegalStateException("nothing to measure: " + texts.size() + " articles, " + queryTexts.size() + " queries");
        }
        List<Integer> threadCounts = new ArrayList<>(new LinkedHashSet<>(List.of(machine.cores(), 1)));

        Path referenceDir = referenceDirectory(model.directory());
        try (ModelRegistry registry = new ModelRegistry()) {
            ModelFiles files = modelDir == null ? model.files() : ModelFiles.fromDirectory(modelDir);
            files.digest(); // hashed before the first reading: the digest's buffer is not the model's memory
            System.gc();
            long before = ProcessMemory.residentBytes();
            // The server's own path, step by step as EmbeddingModelHolder takes it: the tokenizer alone
            // (enough to judge a corpus for AUTO retrieval), then the registry's session, then
            // TextEmbedder.load (its own tokenizer and one probe run), the first tokenizer closed.
            long l0 = System.nanoTime();
            TextTokenizer judging = TextEmbedder.loadTokenizer(files, model.settings());
            long tokenizerLoaded = ProcessMemory.residentBytes();
            SessionSettings serving = new SessionSettings(machine.cores(), SessionSettings.DEFAULT_ARENA);
            registry.load(files, serving);
            long sessionLoaded = ProcessMemory.residentBytes();
            TextEmbedder server = TextEmbedder.load(registry, files, serving, model.settings());
            judging.close();
            long loaded = ProcessMemory.residentBytes();
            EmbeddingReport.Memory memory = new EmbeddingReport.Memory(before, tokenizerLoaded, sessionLoaded, loaded);
            err.printf(Locale.ROOT, "embedding: %s loaded in %.1f s, RSS %d → %d → %d → %d MiB; %d passages%n", server.name(),
                    (System.nanoTime() - l0) / 1e9, before >> 20, tokenizerLoaded >> 20, sessionLoaded >> 20, loaded >> 20, texts.size());

            // What the loader does with a project's articles: all of them through embedPassages at once.
            long p0 = System.nanoTime();
            float[][] passageVectors = server.embedPassages(texts);
            long afterPassages = ProcessMemory.residentBytes();
            err.printf(Locale.ROOT, "embedding: %d passages embedded as the loader does in %.1f s, RSS %d MiB%n", texts.size(),
                    (System.nanoTime() - p0) / 1e9, afterPassages >> 20);

            TextEmbedder today = TextEmbedder.load(registry, ModelFiles.fromDirectory(referenceDir), serving, model.settings());
            List<EmbeddingReport.Throughput> throughput = new ArrayList<>();
            List<float[][]> vectorsAtCores = null;
            for (int threads : threadCounts) {
                SessionSettings session = new SessionSettings(threads, SessionSettings.DEFAULT_ARENA);
                List<Variant> variants = threads == machine.cores()
                        ? List.of(new Variant(server, files.modelPath()), new Variant(today, referenceDir.resolve("model.onnx")))
                        : List.of(new Variant(TextEmbedder.load(registry, files, session, model.settings()), files.modelPath()),
                                new Variant(TextEmbedder.load(registry, ModelFiles.fromDirectory(referenceDir), session, model.settings()),
                                        referenceDir.resolve("model.onnx")));
                List<Measured> measured = measure(variants, threads, texts);
                for (int v = 0; v < variants.size(); v++) {
                    if (variants.get(v).embedder() != server && variants.get(v).embedder() != today) {
                        variants.get(v).embedder().close();
                    }
                    EmbeddingReport.Throughput row = measured.get(v).row();
                    err.printf(Locale.ROOT, "embedding: %s, %d threads: server %.1f passages/s, raw %.1f, min cosine %.6f%n",
                            row.model(), threads, row.serverPassagesPerSecond(), row.rawPassagesPerSecond(), row.minCosine());
                    throughput.add(row);
                }
                if (threads == machine.cores()) {
                    vectorsAtCores = List.of(measured.get(0).served(), measured.get(1).served());
                }
            }
            throughput.sort(java.util.Comparator.comparingInt(EmbeddingReport.Throughput::threads));
            EmbeddingReport.Agreement agreement = agreement(server, today, vectorsAtCores.get(0), vectorsAtCores.get(1), queryTexts);

            EmbeddingReport.Latency[] latency = latency(server, corpus, passageVectors, queryTexts);
            EmbeddingReport.Latency[] todayLatency = latency(today, corpus, vectorsAtCores.get(1), queryTexts);
            today.close();
            EmbeddingReport report = new EmbeddingReport(commandText(), Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(),
                    machine, server.name(), today.name(), texts.size(), queryTexts.size(), memory.withPassages(afterPassages),
                    throughput, latency[0], latency[1], latency[2], todayLatency[0], todayLatency[1], agreement);
            server.close();
            out.print(report.markdown());
            out.flush();
            if (!report.vectorsAgree()) {
                err.println("embedding: the server's vectors differ from raw ONNX Runtime's on the same tokens (cosine below "
                        + EmbeddingReport.MIN_AGREEMENT + ")");
                return 1;
            }
            return 0;
        }
    }

    /** The folder of the model compared with: --reference, or multilingual-e5-small-q4/ beside the built-in. */
    private Path referenceDirectory(Path builtin) {
        Path dir = reference != null ? reference : builtin.resolveSibling(builtin.getFileName() + "-q4");
        if (!Files.isRegularFile(dir.resolve("model.onnx"))) {
            throw new IllegalStateException("no model to compare with in " + dir
                    + ": run scripts/model/fetch-e5.sh --form q4 (today's 4-bit form) or give --reference DIR");
        }
        return dir;
    }

    /** A model measured: its embedder (the server's path) and its file (the raw path). */
    private record Variant(TextEmbedder embedder, Path modelFile) {
    }

    /** Cosine between two unit vectors' directions. */
    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int d = 0; d < a.length; d++) {
            dot += (double) a[d] * b[d];
            na += (double) a[d] * a[d];
            nb += (double) b[d] * b[d];
        }
        return dot / Math.sqrt(na * nb);
    }

    /**
     * The default model's vectors against the reference's: every passage, every query, and each
     * query's ten nearest passages under one model against those under the other.
     */
    private static EmbeddingReport.Agreement agreement(TextEmbedder model, TextEmbedder reference, float[][] passages,
                                                       float[][] referencePassages, List<String> queries) {
        double[] passage = new double[passages.length];
        for (int i = 0; i < passages.length; i++) {
            passage[i] = cosine(passages[i], referencePassages[i]);
        }
        double[] query = new double[queries.size()];
        double overlap = 0;
        int k = Math.min(10, passages.length);
        for (int q = 0; q < queries.size(); q++) {
            float[] a = model.embedQuery(queries.get(q));
            float[] b = reference.embedQuery(queries.get(q));
            query[q] = cosine(a, b);
            java.util.Set<Integer> mine = new java.util.HashSet<>(topK(a, passages, k));
            mine.retainAll(topK(b, referencePassages, k));
            overlap += mine.size() / (double) k;
        }
        return new EmbeddingReport.Agreement(passages.length, java.util.Arrays.stream(passage).min().orElse(1),
                java.util.Arrays.stream(passage).average().orElse(1), queries.size(), java.util.Arrays.stream(query).min().orElse(1),
                java.util.Arrays.stream(query).average().orElse(1), overlap / Math.max(1, queries.size()));
    }

    private static List<Integer> topK(float[] query, float[][] passages, int k) {
        Integer[] order = new Integer[passages.length];
        double[] score = new double[passages.length];
        for (int i = 0; i < passages.length; i++) {
            order[i] = i;
            score[i] = cosine(query, passages[i]);
        }
        java.util.Arrays.sort(order, (x, y) -> Double.compare(score[y], score[x]));
        return java.util.Arrays.asList(order).subList(0, k);
    }

    private record Measured(EmbeddingReport.Throughput row, float[][] served) {
    }

    /**
     * The same passages through every model both ways at one thread count, batch by batch in
     * turn (which run goes first rotates), so that all see the same moments of a shared machine.
     * Each path first embeds the shortest passage alone (a session's first run pays one-off
     * set-up). The server path gets each batch's texts (TextEmbedder.embedPassages forms the same
     * batch of them and tokenizes it itself); the raw path gets the tokens ready-made: its time is
     * the model and the pooling alone. The models share a tokenizer.json, so one tokenization
     * serves all.
     */
    private static List<Measured> measure(List<Variant> variants, int threads, List<String> texts) throws Exception {
        TextEmbedder first = variants.get(0).embedder();
        long t0 = System.nanoTime();
        List<RawEmbeddingRun.TokenBatch> batches = RawEmbeddingRun.tokenize(first.tokenizer(), texts,
                first.settings().passagePrefix());
        double tokenizeSeconds = (System.nanoTime() - t0) / 1e9;
        long tokens = batches.stream().mapToLong(RawEmbeddingRun.TokenBatch::realTokens).sum();
        double flops = batches.stream().mapToDouble(b -> EncoderShape.E5_SMALL.flops(b.rows(), b.width())).sum();
        int shortest = batches.get(0).passages()[0];
        RawEmbeddingRun.TokenBatch warmUp = RawEmbeddingRun.tokenize(first.tokenizer(), List.of(texts.get(shortest)),
                first.settings().passagePrefix()).get(0);

        int n = variants.size();
        float[][][] served = new float[n][texts.size()][];
        float[][][] raw = new float[n][texts.size()][];
        long[] serverNanos = new long[n];
        long[] rawNanos = new long[n];
        List<RawEmbeddingRun> runs = new ArrayList<>();
        try {
            for (Variant v : variants) {
                runs.add(new RawEmbeddingRun(v.modelFile(), threads, v.embedder().output()));
                v.embedder().embedPassages(List.of(texts.get(shortest)));
                runs.get(runs.size() - 1).run(warmUp);
            }
            for (int i = 0; i < batches.size(); i++) {
                RawEmbeddingRun.TokenBatch b = batches.get(i);
                List<String> batchTexts = java.util.Arrays.stream(b.passages()).mapToObj(texts::get).toList();
                for (int turn = 0; turn < 2 * n; turn++) {
                    int slot = (turn + i) % (2 * n);
                    int v = slot / 2;
                    boolean server = slot % 2 == 0;
                    long s0 = System.nanoTime();
                    float[][] vectors = server ? variants.get(v).embedder().embedPassages(batchTexts) : runs.get(v).run(b);
                    long spent = System.nanoTime() - s0;
                    float[][] into = server ? served[v] : raw[v];
                    for (int r = 0; r < b.rows(); r++) {
                        into[b.passages()[r]] = vectors[r];
                    }
                    if (server) {
                        serverNanos[v] += spent;
                    } else {
                        rawNanos[v] += spent;
                    }
                }
            }
        } finally {
            for (RawEmbeddingRun run : runs) {
                run.close();
            }
        }
        List<Measured> out = new ArrayList<>();
        for (int v = 0; v < n; v++) {
            double minCosine = 1;
            double maxAbsDiff = 0;
            for (int i = 0; i < texts.size(); i++) {
                minCosine = Math.min(minCosine, cosine(served[v][i], raw[v][i]));
                for (int d = 0; d < served[v][i].length; d++) {
                    maxAbsDiff = Math.max(maxAbsDiff, Math.abs(served[v][i][d] - raw[v][i][d]));
                }
            }
            out.add(new Measured(new EmbeddingReport.Throughput(variants.get(v).embedder().name(), threads, texts.size(), tokens,
                    tokenizeSeconds, serverNanos[v] / 1e9, rawNanos[v] / 1e9, minCosine, maxAbsDiff, flops), served[v]));
        }
        return out;
    }

    /**
     * Query-embedding latency (embedQuery alone) and full searches through SearchService on the
     * same articles twice over: a hybrid project (the passage vectors the loader's pass just
     * made) and a lexical-only one. Each query is embedded, then searched on both, one call at a
     * time, so the three figures share the moments of a shared machine; after a warm-up round.
     */
    private static EmbeddingReport.Latency[] latency(TextEmbedder embedder, Corpus corpus, float[][] vectors,
                                                         List<String> queries) throws Exception {
        Language language = ProjectSettings.Retrieval.DEFAULTS.languageFor(corpus);
        CosineEvidence evidence = CosineEvidence.forModel(embedder.name(), language);
        ProjectCatalog catalog = new ProjectCatalog();
        try (ProjectIndex hybridIndex = IndexBuilder.build(corpus, language, null, vectors);
             ProjectIndex lexicalIndex = IndexBuilder.build(corpus, language, null, null)) {
            catalog.put(new Project("hybrid", "", corpus, hybridIndex, RetrievalMode.HYBRID, "bench", ProjectSettings.Retrieval.DEFAULTS
                    .gate(RetrievalMode.HYBRID, false, evidence), List.of(), null, evidence));
            catalog.put(new Project("lexical", "", corpus, lexicalIndex, RetrievalMode.LEXICAL, "bench", ProjectSettings.Retrieval.DEFAULTS
                    .gate(RetrievalMode.LEXICAL, false, CosineEvidence.RAW), List.of(), null, CosineEvidence.RAW));
            SearchService search = new SearchService(catalog, embedder, SearchLimits.DEFAULTS);
            for (String q : queries.subList(0, Math.min(10, queries.size()))) {
                embedder.embedQuery(q);
                search.search("hybrid", q, null);
                search.search("lexical", q, null);
            }
            List<Double> embedding = new ArrayList<>();
            List<Double> hybrid = new ArrayList<>();
            List<Double> lexical = new ArrayList<>();
            for (String q : queries) {
                long t0 = System.nanoTime();
                embedder.embedQuery(q);
                long t1 = System.nanoTime();
                search.search("hybrid", q, null);
                long t2 = System.nanoTime();
                search.search("lexical", q, null);
                long t3 = System.nanoTime();
                embedding.add((t1 - t0) / 1e6);
                hybrid.add((t2 - t1) / 1e6);
                lexical.add((t3 - t2) / 1e6);
            }
            return new EmbeddingReport.Latency[] {EmbeddingReport.Latency.of(embedding), EmbeddingReport.Latency.of(hybrid),
                    EmbeddingReport.Latency.of(lexical)};
        }
    }

    /** The built-in multilingual model as the server finds it, or an error saying how to install it. */
    static EmbeddingModel installedE5() {
        ServerEnvironment env = ServerEnvironment.read(System.getenv());
        EmbeddingModel model = SettingsResolver.defaultEmbedding(env);
        if (!BuiltinModels.EMBEDDING_E5.equals(model.builtin()) || model.directory() == null) {
            throw new IllegalStateException(BuiltinModels.EMBEDDING_E5 + " is not installed (looked in "
                    + env.builtinModelRoots() + "): run scripts/model/fetch-e5.sh first");
        }
        return model;
    }

    /** The corpus cut after its first {@code n} live articles (all of it when n ≤ 0). */
    static Corpus firstArticles(Corpus corpus, int n) {
        if (n <= 0) {
            return corpus;
        }
        List<Document> kept = new ArrayList<>();
        int live = 0;
        for (Document d : corpus.documents()) {
            if (live >= n) {
                break;
            }
            List<Article> articles = new ArrayList<>();
            for (Article a : d.articles()) {
                if (live >= n) {
                    break;
                }
                articles.add(a);
                live += a.deleted() ? 0 : 1;
            }
            kept.add(new Document(d.id(), d.title(), d.sha256(), articles));
        }
        return new Corpus(corpus.project(), kept, corpus.version() + "-first" + n);
    }

    private List<String> queryTexts() {
        List<String> out = new ArrayList<>();
        for (Path file : questions) {
            Path found = Files.isRegularFile(file) || file.isAbsolute() ? file : Path.of("..").resolve(file);
            for (Question q : QuestionFile.load(found).questions()) {
                if (out.size() < queries) {
                    out.add(q.query());
                }
            }
        }
        return out;
    }

    private String commandText() {
        List<String> args = spec.commandLine().getParseResult() == null ? List.of()
                : spec.commandLine().getParseResult().originalArgs();
        List<String> words = new ArrayList<>(args);
        if (words.isEmpty() || !words.get(0).equals("embedding")) {
            words.add(0, "embedding");
        }
        return "ragsearch-bench " + String.join(" ", words);
    }
}
