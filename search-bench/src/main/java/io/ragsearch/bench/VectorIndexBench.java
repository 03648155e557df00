package io.ragsearch.bench;

import io.ragsearch.index.VectorMatrix;
import io.ragsearch.index.VectorSearchSettings;
import io.ragsearch.metrics.ProcessMemory;
import io.ragsearch.search.SearchLimits;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The vector leg at scale: exact scan against Lucene's HNSW graph (with and without int8
 * quantization) on clustered synthetic unit vectors, at the sizes asked for: build time, time
 * to reopen a persisted graph, heap, disk and mapped-resident memory, recall@10 against exact
 * and latency p50/p95 per number of graph candidates; optionally the same on the Korean
 * statutes' real vectors and a hybrid search run at a large replicated corpus.
 */
@Command(name = "vector-index", mixinStandardHelpOptions = true,
        description = {"Vector search at scale: exact scan vs HNSW (float and int8) on synthetic clustered unit vectors: "
                + "build s, reopen s, memory, recall@10 vs exact, search p50/p95 per candidates; --statutes and --hybrid add the "
                + "real statute vectors and hybrid search at a large corpus (both need the built-in model)."})
public final class VectorIndexBench implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--sizes", split = ",", paramLabel = "N", description = "Synthetic corpus sizes (default 10000,100000).")
    List<Integer> sizes = List.of(10_000, 100_000);

    @Option(names = "--dimension", description = "Vector dimension (default 384, the built-in model's).")
    int dimension = 384;

    @Option(names = "--clusters", description = "Clusters in the synthetic corpus (default 100).")
    int clusters = 100;

    @Option(names = "--queries", description = "Queries per size (default 200).")
    int queries = 200;

    @Option(names = "--seed", description = "Seed of the synthetic vectors (default 28).")
    long seed = 28;

    @Option(names = "--m", description = "HNSW maximum connections per node (default: the server's).")
    int maxConnections = VectorSearchSettings.DEFAULTS.maxConnections();

    @Option(names = "--beam-width", description = "HNSW build beam width (default: the server's).")
    int beamWidth = VectorSearchSettings.DEFAULTS.beamWidth();

    @Option(names = "--candidates", split = ",", description = "Graph search candidates to measure (default 10,50,100,200).")
    List<Integer> candidates = List.of(10, 50, 100, 200);

    @Option(names = "--forms", split = ",", description = "HNSW forms: float, int8 (default both); before: also the scan the "
            + "exact path replaced (an array per article, all sorted); none: the exact scan alone.")
    List<String> forms = List.of("float", "int8");

    @Option(names = "--work", paramLabel = "DIR", description = "Where the graphs are written (default: a temporary directory, removed after); a graph an earlier run "
            + "left there for the same vectors and settings is reopened, not built again.")
    Path work;

    @Option(names = "--statutes", description = "Also measure recall and latency on the Korean statutes' real vectors (the built-in model).")
    boolean statutes;

    @Option(names = "--hybrid", paramLabel = "N", description = "Also time hybrid search (SearchService) over N articles: the statutes "
            + "replicated, the synthetic vectors of size N (their graph reopened from --work when a run persisted it).")
    int hybrid;

    @Option(names = "--ko", paramLabel = "DIR", description = "Korean statutes (default $RAGSEARCH_SHARED_CORPUS or ../shared/corpus/ko-statutes).")
    Path ko;

    @Option(names = "--questions", paramLabel = "FILE", split = ",",
            description = "Question files giving the queries (default eval/ko-statutes-dev.yaml,eval/ko-statutes-holdout.yaml).")
    List<Path> questions = List.of(Path.of("eval/ko-statutes-dev.yaml"), Path.of("eval/ko-statutes-holdout.yaml"));

    @Option(names = "--vector-cache", paramLabel = "DIR", description = "Vector cache for the statutes' article vectors "
            + "(default $RAGSEARCH_VECTOR_CACHE, else a directory under --work).")
    Path vectorCache;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        for (String form : forms) {
            if (!List.of("float", "int8", "before", "none").contains(form)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--forms takes float, int8, before or none, not " + form);
            }
        }
        Machine machine = Machine.describe();
        out.printf(Locale.ROOT, "Machine: %s, %d cores (%s), %.1f GiB, %s, max heap %d MiB. Run: `%s`, %s.%n%n", machine.cpu(),
                machine.cores(), machine.vector(), machine.memoryBytes() / (double) (1L << 30), machine.java(),
                Runtime.getRuntime().maxMemory() >> 20, commandText(), Instant.now().truncatedTo(ChronoUnit.SECONDS));
        out.printf(Locale.ROOT, "HNSW M %d, beamWidth %d; synthetic: dimension %d, %d clusters, spread %.2f, seed %d, %d queries, k %d.%n%n",
                maxConnections, beamWidth, dimension, clusters, SyntheticVectors.SPREAD, seed, queries, VectorIndexRun.K);
        out.flush();
        boolean temporary = work == null;
        Path dir = temporary ? Files.createTempDirectory("vector-index-bench") : Files.createDirectories(work);
        try {
            SyntheticVectors synthetic = new SyntheticVectors(dimension, clusters, seed);
            float[][] queryVectors = synthetic.queries(queries, seed + 1);
            for (int n : sizes.stream().filter(n -> n > 0).toList()) {
                long t0 = System.nanoTime();
                VectorMatrix matrix = VectorMatrix.wrap(synthetic.rows(n, seed + 2), dimension);
                err.printf(Locale.ROOT, "vector-index: %d synthetic vectors made in %.1f s%n", n, (System.nanoTime() - t0) / 1e9);
                VectorIndexRun.Result r = VectorIndexRun.measure(matrix, queryVectors, forms, maxConnections, beamWidth, candidates, dir,
                        syntheticKey(n));
                print(out, r, "synthetic");
                out.printf(Locale.ROOT, "Process after %d: RSS %d MiB, peak RSS %d MiB, heap used %d MiB.%n%n", n,
                        ProcessMemory.residentBytes() >> 20, ProcessMemory.peakResidentBytes() >> 20, MappedMemory.heapUsed() >> 20);
                out.flush();
            }
            if (statutes || hybrid > 0) {
                try (StatuteVectors real = StatuteVectors.load(SharedStatutes.directory(ko), questions)) {
                    if (statutes) {
                        statutes(out, err, real, dir);
                    }
                    if (hybrid > 0) {
                        hybrid(out, err, real, synthetic, dir);
                    }
                }
            }
        } finally {
            if (temporary) {
                delete(dir);
            }
        }
        return 0;
    }

    private void statutes(PrintWriter out, PrintWriter err, StatuteVectors real, Path dir) throws IOException {
        Path cache = vectorCache != null ? vectorCache
                : System.getenv("RAGSEARCH_VECTOR_CACHE") != null ? Path.of(System.getenv("RAGSEARCH_VECTOR_CACHE"))
                : dir.resolve("vector-cache");
        long t0 = System.nanoTime();
        VectorMatrix matrix = VectorMatrix.of(real.articleVectors(cache));
        float[][] queryVectors = real.queryVectors();
        err.printf(Locale.ROOT, "vector-index: statutes: %d article vectors, %d queries in %.1f s%n", matrix.rows(), queryVectors.length,
                (System.nanoTime() - t0) / 1e9);
        VectorIndexRun.Result r = VectorIndexRun.measure(matrix, queryVectors, forms, maxConnections, beamWidth, candidates,
                dir.resolve("statutes"), "statutes " + real.corpus().version() + " " + real.embedder().digest());
        print(out, r, "Korean statutes, " + real.embedder().name() + ", the eval questions as queries");
        out.flush();
    }

    private void hybrid(PrintWriter out, PrintWriter err, StatuteVectors real, SyntheticVectors synthetic, Path dir) throws IOException {
        long t0 = System.nanoTime();
        VectorMatrix matrix = VectorMatrix.wrap(synthetic.rows(hybrid, seed + 2), dimension);
        err.printf(Locale.ROOT, "vector-index: hybrid: %d synthetic vectors made in %.1f s%n", hybrid, (System.nanoTime() - t0) / 1e9);
        // The server's form (int8 by default), so a synthetic run of the same size leaves the graph this run reopens.
        VectorSearchSettings settings = new VectorSearchSettings(0, maxConnections, beamWidth, VectorSearchSettings.DEFAULTS.candidates(),
                VectorSearchSettings.DEFAULTS.quantized());
        String form = settings.quantized() ? "int8" : "float";
        HybridScaleRun.Result r = HybridScaleRun.measure(real, matrix, settings, dir.resolve(hybrid + "-" + form), syntheticKey(hybrid));
        out.printf(Locale.ROOT, "#### Hybrid search over %,d articles (statutes replicated; synthetic vectors; %d queries embedded by %s)%n%n",
                r.articles(), real.queries().size(), real.embedder().name());
        out.printf(Locale.ROOT, "Graph %s in %.1f s (%s, M %d, beamWidth %d, %d candidates); lexical index built in %.1f s (%.1f CPU-s); "
                        + "RSS %d MiB (peak %d MiB), heap used %d MiB, of which the lexical side %d MiB.%n%n", r.graphReopened() ? "reopened from disk" : "built", r.graphSeconds(),
                form, maxConnections, beamWidth, settings.candidates(), r.lexicalBuildSeconds(), r.lexicalBuildCpuSeconds(),
                r.rssBytes() >> 20, r.peakRssBytes() >> 20, r.heapBytes() >> 20, r.lexicalHeapBytes() >> 20);
        out.println("| step | p50 ms | p95 ms |");
        out.println("|---|---:|---:|");
        out.printf(Locale.ROOT, "| query embedding | %.1f | %.1f |%n", r.embedding().p50Ms(), r.embedding().p95Ms());
        out.printf(Locale.ROOT, "| vector leg (graph, depth %d) | %.2f | %.2f |%n", SearchLimits.DEFAULTS.legDepth(),
                r.vectorLeg().p50Ms(), r.vectorLeg().p95Ms());
        out.printf(Locale.ROOT, "| lexical search | %.1f | %.1f |%n", r.lexical().p50Ms(), r.lexical().p95Ms());
        out.printf(Locale.ROOT, "| hybrid search (embedding included) | %.1f | %.1f |%n%n", r.hybrid().p50Ms(), r.hybrid().p95Ms());
        out.flush();
    }

    /** Names the synthetic vectors exactly (a persisted graph is reused only for the same ones). */
    private String syntheticKey(int n) {
        return "synthetic seed=" + seed + " n=" + n + " dimension=" + dimension + " clusters=" + clusters + " spread="
                + SyntheticVectors.SPREAD;
    }

    static void print(PrintWriter out, VectorIndexRun.Result r, String corpus) {
        out.printf(Locale.ROOT, "#### %,d vectors (%s)%n%n", r.articles(), corpus);
        out.println("| index | build s | build CPU s | reopen + 1st query s | heap MiB | on disk MiB | raw .vec MiB | graph .vex MiB | int8 .veq MiB |");
        out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (VectorIndexRun.Build b : r.builds()) {
            out.printf(Locale.ROOT, "| %s | %s | %s | %.2f | %.1f | %.1f | %.1f | %.1f | %.1f |%n", b.form(),
                    b.kept() ? "kept" : String.format(Locale.ROOT, "%.1f", b.buildSeconds()),
                    b.kept() ? "kept" : String.format(Locale.ROOT, "%.1f", b.buildCpuSeconds()), b.reopenSeconds(),
                    mib(b.heapBytes()), mib(b.diskBytes()), mib(b.vectorBytes()), mib(b.graphBytes()), mib(b.quantizedBytes()));
        }
        out.println();
        out.println("| index | candidates | recall@10 | p50 ms | p95 ms | CPU p50 ms | CPU p95 ms | mapped resident MiB |");
        out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
        for (VectorIndexRun.Search s : r.searches()) {
            out.printf(Locale.ROOT, "| %s | %s | %.4f | %.3f | %.3f | %.3f | %.3f | %.1f |%n", s.form(), s.candidates() == 0 ? "all" : s.candidates(),
                    s.recall(), s.p50Ms(), s.p95Ms(), s.cpuP50Ms(), s.cpuP95Ms(), mib(s.mappedResidentBytes()));
        }
        out.println();
    }

    private static double mib(long bytes) {
        return bytes / (double) (1L << 20);
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private String commandText() {
        List<String> args = spec.commandLine().getParseResult() == null ? List.of()
                : spec.commandLine().getParseResult().originalArgs();
        List<String> words = new ArrayList<>(args);
        if (words.isEmpty() || !words.get(0).equals("vector-index")) {
            words.add(0, "vector-index");
        }
        return "ragsearch-bench " + String.join(" ", words);
    }
}
