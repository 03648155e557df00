package io.ragsearch.bench;

import io.ragsearch.contract.budget.RerankBudget;
import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.contract.calibration.CalibrationJson;
import io.ragsearch.corpus.Corpus;
import io.ragsearch.corpus.CorpusLoader;
import io.ragsearch.embed.ModelRegistry;
import io.ragsearch.embed.SessionSettings;
import io.ragsearch.index.IndexBuilder;
import io.ragsearch.index.Language;
import io.ragsearch.index.ProjectIndex;
import io.ragsearch.index.RankedArticle;
import io.ragsearch.rerank.PairBatch;
import io.ragsearch.rerank.Reranker;
import io.ragsearch.rerank.RerankerFactory;
import io.ragsearch.rerank.RerankerModel;
import io.ragsearch.server.SampleCorpus;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Benchmarks the real server: the load table (concurrent searches × rerank concurrency, health
 * latency, peak memory against the calibrated prediction), end-to-end rerank efficiency against
 * raw ONNX Runtime on the same batches, and index scaling. Writes JSON, Markdown and PNG plots.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmark real server processes over MCP with the rerank cost stand-in; write results.json, results.md and "
                + "PNG plots into --out.")
public final class BenchCommand implements Callable<Integer> {

    static final List<String> KO_QUERIES = List.of("연차 유급휴가는 며칠인가요", "최저임금의 결정 기준", "공무원 징계의 종류",
            "퇴직급여 지급 기한", "직장 내 괴롭힘 금지", "출장 여비 숙박비", "정보공개 청구 절차", "공익신고자 보호 조치",
            "부정청탁 금지 대상", "육아휴직 기간");
    static final List<String> EN_QUERIES = List.of("how many days of annual leave", "can I work from home", "hotel limit in Seoul",
            "gifts from suppliers", "password length", "report a lost laptop", "overtime pay", "parental leave");

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default docs/benchmarks).")
    Path out = Path.of("docs/benchmarks");

    @Option(names = "--quick", description = "A short run (under two minutes): English sample, 1 and 4 concurrent searches, rerank 1.")
    boolean quick;

    @Option(names = "--ko", paramLabel = "DIR", description = "Korean statutes (default $RAGSEARCH_SHARED_CORPUS or ../shared/corpus/ko-statutes).")
    Path ko;

    @Option(names = "--memory-limit-mib", description = "Container memory limit assumed for 'auto' concurrency (default 1500, the field's).")
    int memoryLimitMib = 1500;

    private record CorpusSpec(String name, Path dir, List<String> include, List<String> queries, Language language) {
    }

    @Override
    public Integer call() throws Exception {
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(out);
        Path work = Files.createTempDirectory("ragsearch-bench-");
        Machine machine = Machine.describe();
        List<CorpusSpec> corpora = new ArrayList<>();
        Path koDir = SharedStatutes.directory(ko);
        if (!quick) {
            corpora.add(new CorpusSpec("ko-statutes", koDir, List.of("*.md"), KO_QUERIES, Language.KOREAN));
        }
        corpora.add(new CorpusSpec("handbook-en", SampleCorpus.locate().resolve("en"), CorpusLoader.DEFAULT_INCLUDE, EN_QUERIES,
                Language.ENGLISH));
        List<Integer> concurrency = quick ? List.of(1, 4) : List.of(1, 2, 4, 6, 8);
        List<String> settings = quick ? List.of("1") : List.of("1", "2", "auto");
        int rounds = quick ? 1 : 2;

        Map<String, Calibration> calibrations = new LinkedHashMap<>();
        Map<String, Integer> auto = new LinkedHashMap<>();
        List<LoadCell> load = new ArrayList<>();
        double idleLivezP99 = 0;
        for (CorpusSpec spec : corpora) {
            Path config = writeConfig(work, spec);
            int candidates = Math.min(32, (int) new CorpusLoader(false, spec.include()).load(spec.name(), spec.dir()).corpus()
                    .documents().stream().mapToLong(d -> d.liveArticleCount()).sum());
            Map<Integer, List<LoadCell>> byPermits = new LinkedHashMap<>();
            for (String setting : settings) {
                int permits = setting.equals("auto") ? auto.getOrDefault(spec.name(), 1) : Integer.parseInt(setting);
                if (setting.equals("auto") && byPermits.containsKey(permits)) {
                    for (LoadCell c : byPermits.get(permits)) {
                        load.add(relabel(c, "auto=" + permits));
                    }
                    continue;
                }
                try (ServerProcess server = ServerProcess.start(config, permits, work.resolve(spec.name() + "-" + setting + ".log"))) {
                    Calibration cal = calibration(server);
                    calibrations.putIfAbsent(spec.name(), cal);
                    auto.putIfAbsent(spec.name(), safeConcurrency(cal, (long) memoryLimitMib << 20, machine.cores()));
                    if (idleLivezP99 == 0) {
                        idleLivezP99 = idleLivez(server);
                    }
                    List<LoadCell> cells = new ArrayList<>();
                    for (int c : concurrency) {
                        LoadCell cell = LoadRunner.run(server, spec.name(), spec.name(), setting.equals("auto") ? "auto=" + permits : setting,
                                permits, c, rounds, spec.queries(), cal.predictedPeak(permits), candidates);
                        System.err.printf(Locale.ROOT, "bench %s rerank %s: %d concurrent, %d searches in %.1f s, livez p99 %.1f ms%n",
                                spec.name(), cell.rerank(), c, cell.searches(), cell.totalSeconds(), cell.livezP99Ms());
                        cells.add(cell);
                    }
                    byPermits.put(permits, cells);
                    load.addAll(cells);
                }
            }
        }

        CorpusSpec primary = corpora.get(0);
        LoadCell e2e = load.stream().filter(c -> c.corpus().equals(primary.name()))
                .max(Comparator.comparingDouble(LoadCell::candidatesPerSecond)).orElseThrow();
        RawOnnxRun.Result raw;
        try (ModelRegistry registry = new ModelRegistry()) {
            Reranker standIn = new RerankerFactory(registry, new SessionSettings(1, SessionSettings.DEFAULT_ARENA))
                    .create(RerankerModel.builtin(RerankerFactory.STAND_IN, null));
            raw = RawOnnxRun.run(standIn, candidateBatches(standIn, primary), e2e.rerankPermits(), quick ? 1 : 2);
        }
        double efficiency = e2e.candidatesPerSecond() / raw.candidatesPerSecond();

        CorpusSpec scaleSpec = quick ? primary : corpora.get(0);
        Corpus scaleCorpus = new CorpusLoader(false, scaleSpec.include()).load(scaleSpec.name(), scaleSpec.dir()).corpus();
        List<ScalingRun.Point> scaling = new ArrayList<>();
        for (int m : quick ? List.of(1, 2) : List.of(1, 4, 16)) {
            scaling.add(ScalingRun.measure(scaleCorpus, scaleSpec.language(), m, scaleSpec.queries()));
        }

        Map<String, Double> headline = new LinkedHashMap<>();
        int healthAt = quick ? 4 : 6;
        LoadCell loaded = load.stream().filter(c -> c.corpus().equals(primary.name()) && c.rerank().equals("1")
                && c.concurrentSearches() == healthAt).findFirst().orElseThrow();
        headline.put("livez p99 ms idle", idleLivezP99);
        headline.put("livez p99 ms, " + healthAt + " concurrent searches (" + primary.name() + ", rerank 1)", loaded.livezP99Ms());
        headline.put("livez p99 loaded / idle", loaded.livezP99Ms() / Math.max(idleLivezP99, 0.001));
        headline.put("end-to-end rerank throughput / raw ONNX", efficiency);
        headline.put("raw GFLOP/s / rough CPU peak", raw.gflopPerSecond() / machine.peakGflops());
        headline.put("max peak memory / prediction", load.stream().mapToDouble(c -> (double) c.peakBytes() / c.predictedPeakBytes())
                .max().orElse(0));
        BenchReport report = new BenchReport("ragsearch bench" + (quick ? " --quick" : ""), Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(),
                machine, quick, calibrations, auto, load, raw, e2e, efficiency, scaling, headline);
        Files.writeString(out.resolve("results.json"), JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build()
                .writeValueAsString(report));
        Files.writeString(out.resolve("results.md"), report.markdown());
        Charts.byConcurrency(out.resolve("livez-p99.png"), "/livez p99 latency under load", "ms", load, LoadCell::livezP99Ms);
        Charts.byConcurrency(out.resolve("search-p50.png"), "Search latency p50", "ms", load, LoadCell::searchP50Ms);
        Charts.memory(out.resolve("memory-" + primary.name() + ".png"), primary.name(), load);
        Charts.scaling(out.resolve("scaling.png"), scaling);
        System.out.print(report.markdown());
        return 0;
    }

    private Path writeConfig(Path work, CorpusSpec spec) throws java.io.IOException {
        Path config = work.resolve(spec.name() + ".yaml");
        String include = String.join(", ", spec.include().stream().map(g -> "\"" + g + "\"").toList());
        Files.writeString(config, """
                rerank:
                  queueTimeoutMillis: 600000
                  calibrationLevels: %s
                projects:
                  - name: %s
                    source: {directory: "%s", include: [%s]}
                    reranker: {builtin: minilm-pair}
                """.formatted(quick ? "[1]" : "[1, 2, 1]", spec.name(), spec.dir().toAbsolutePath(), include));
        return config;
    }

    private static Calibration calibration(ServerProcess server) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.adminPort + "/calibration")).build(), HttpResponse.BodyHandlers.ofString());
        return CalibrationJson.parse(r.body());
    }

    /**
     * The safe concurrency the operator would set for a container of {@code limit} bytes whose
     * CPU limit is this machine's cores: the contract's one formula, so the "auto" row is what a
     * deployment gets (default headroom, the CPU bound from the cores).
     */
    static int safeConcurrency(Calibration c, long limit, int cores) {
        if (!c.hasReranker()) {
            throw new IllegalStateException("the calibration measured no rerank cost: the bench configures a reranker");
        }
        return RerankBudget.safe(new RerankBudget.Limits(limit, cores * 1000L, RerankBudget.DEFAULT_HEADROOM_PERCENT),
                new RerankBudget.Measurement(c.residentBytes(), c.perRunBytes(), c.intraOpThreads())).safe();
    }

    private static double idleLivez(ServerProcess server) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.adminPort + "/livez")).build();
        List<Double> ms = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            long t0 = System.nanoTime();
            http.send(req, HttpResponse.BodyHandlers.discarding());
            ms.add((System.nanoTime() - t0) / 1e6);
            Thread.sleep(50);
        }
        return LoadRunner.percentile(ms, 99);
    }

    /** The pair batches the server reranks for these queries: each query with its top-32 lexical candidates. */
    private static List<PairBatch> candidateBatches(Reranker reranker, CorpusSpec spec) throws Exception {
        Corpus corpus = new CorpusLoader(false, spec.include()).load(spec.name(), spec.dir()).corpus();
        List<PairBatch> batches = new ArrayList<>();
        try (ProjectIndex index = IndexBuilder.build(corpus, spec.language(), null, null)) {
            for (String q : spec.queries()) {
                List<String> passages = new ArrayList<>();
                for (RankedArticle r : index.lexical(index.queryAnalyzer().analyze(q), 32)) {
                    passages.add(index.article(r.position()).article().searchableText());
                }
                if (!passages.isEmpty()) {
                    batches.add(reranker.encode(q, passages));
                }
            }
        }
        return batches;
    }

    private static LoadCell relabel(LoadCell c, String rerank) {
        return new LoadCell(c.corpus(), rerank, c.rerankPermits(), c.concurrentSearches(), c.searches(), c.failed(), c.busy(),
                c.totalSeconds(), c.searchP50Ms(), c.searchP95Ms(), c.livezP50Ms(), c.livezP99Ms(), c.livezMaxMs(), c.livezSamples(),
                c.peakBytes(), c.predictedPeakBytes(), c.candidatesPerSecond());
    }
}
