package io.ragsearch.cli;

import io.ragsearch.config.ServerEnvironment;
import io.ragsearch.contract.Environment;
import io.ragsearch.eval.Bm25Baseline;
import io.ragsearch.eval.CandidateDump;
import io.ragsearch.eval.FusionBaseline;
import io.ragsearch.eval.EvalException;
import io.ragsearch.eval.EvalReport;
import io.ragsearch.eval.EvalRun;
import io.ragsearch.eval.EvalSummary;
import io.ragsearch.eval.GateCurve;
import io.ragsearch.eval.InProcessBackend;
import io.ragsearch.eval.McpBackend;
import io.ragsearch.eval.MidpointCurve;
import io.ragsearch.eval.QuestionFile;
import io.ragsearch.eval.QuestionResult;
import io.ragsearch.eval.SearchBackend;
import io.ragsearch.search.CosineEvidence;
import io.ragsearch.search.Project;
import io.ragsearch.search.ProjectCatalog;
import io.ragsearch.search.RelevanceGate;
import io.ragsearch.search.SearchService;
import io.ragsearch.server.OfflineProjects;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Measures search quality on question files: in process on the configured projects, or against
 * a running server through MCP as an agent would call it, optionally beside the plain BM25 baseline.
 */
@Command(name = "eval", mixinStandardHelpOptions = true,
        description = {"Run question files (see docs/eval.md) and print hit@1/5/10, MRR@10, the gate's kept and refused "
                + "shares and latency, per kind and overall.",
                "Exit status: 0 all floors met, 3 a floor not met, 1 an error (bad file, unknown project, unreachable server)."})
public class EvalCommand implements Callable<Integer> {

    static final int FLOOR_NOT_MET = 3;

    @Mixin
    ProjectOptions projects;

    @Option(names = "--url", paramLabel = "URL",
            description = "Ask a running server through MCP instead (e.g. http://127.0.0.1:8080/mcp); token from $RAGSEARCH_AUTH_TOKEN.")
    String url;

    @Option(names = "--baseline", description = "Also run the plain baselines on the same projects (in process only): Lucene BM25, and where a project has vectors, BM25 and its vectors merged by reciprocal-rank fusion.")
    boolean baseline;

    @Option(names = "--json", description = "Print the figures as JSON.")
    boolean json;

    @Option(names = "--misses", description = "Also list every question answered wrongly (not in the top 5, refused, or an unanswerable one answered).")
    boolean misses;

    @Option(names = "--sweep", description = "Run with every project's gate open and print the gate's trade-off "
            + "(kept, hit@5, refused) for thresholds 0 to 1 (in process only).")
    boolean sweep;

    @Option(names = "--sweep-midpoint", description = "Run each set once per cosine-evidence midpoint from 0.780 to 0.880 "
            + "(step 0.005), gates at their thresholds, and print kept, hit@5, MRR@10 and refused per midpoint (in process only; "
            + "projects whose model's cosine is read as it is are left alone).")
    boolean sweepMidpoint;

    static final double MIDPOINT_LOW = 0.780;
    static final double MIDPOINT_HIGH = 0.880;
    static final double MIDPOINT_STEP = 0.005;

    /** The bench jar's command that draws the plot (charts are a development tool, not in the server's jar). */
    public static final String PLOT_COMMAND = "java -jar search-bench/target/ragsearch-bench.jar eval ... --sweep --plot DIR";

    @Option(names = "--plot", paramLabel = "DIR",
            description = "With --sweep: write the trade-off of each set as DIR/SET-gate.png (the bench jar's eval only: "
                    + PLOT_COMMAND + ").")
    Path plot;

    /** Draws a set's gate curve into a directory; none in the server's jar. */
    @FunctionalInterface
    public interface GatePlotter {
        Path write(GateCurve curve, double defaultThreshold, Path directory) throws java.io.IOException;
    }

    /** The plotter of this command: the bench jar's eval gives one. */
    protected GatePlotter plotter() {
        return null;
    }

    @Option(names = "--min", paramLabel = "METRIC=VALUE",
            description = "A floor: hit1, hit5, hit10, mrr, kept, refused, or KIND.METRIC (e.g. paraphrase.mrr=0.3). Repeatable.")
    List<String> floors = new ArrayList<>();

    @Option(names = "--min-hit1", paramLabel = "X", description = "Floor on hit@1 of the answerable questions.")
    Double minHit1;
    @Option(names = "--min-hit5", paramLabel = "X", description = "Floor on hit@5 of the answerable questions.")
    Double minHit5;
    @Option(names = "--min-hit10", paramLabel = "X", description = "Floor on hit@10 of the answerable questions.")
    Double minHit10;
    @Option(names = "--min-mrr", paramLabel = "X", description = "Floor on MRR@10 of the answerable questions.")
    Double minMrr;
    @Option(names = "--min-kept", paramLabel = "X", description = "Floor on the share of answerable questions the gate keeps.")
    Double minKept;
    @Option(names = "--min-refused", paramLabel = "X", description = "Floor on the share of unanswerable questions the gate refuses.")
    Double minRefused;

    @Option(names = "--dump", paramLabel = "FILE",
            description = "Write what the pipeline saw for every question (both legs, coverage and cosine of every candidate, "
                    + "the plain BM25 order, the query's analysis) as JSON lines to FILE, for the gate's trainer "
                    + "(scripts/eval/train-gate.py; in process only). Dev sets only: a held-out set dumped is a held-out set read.")
    Path dump;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "Per-call timeout with --url (default 60).")
    int timeoutSeconds = 60;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "Question files (YAML).")
    List<Path> files;

    /** The in-process search (null with --url), for the dump. */
    private SearchService searchService;

    /** The in-process projects (null with --url), for the midpoint sweep. */
    private ProjectCatalog catalog;

    /** The thresholds the projects had before --sweep opened their gates, for the plot. */
    private final Map<String, Double> defaultThresholds = new HashMap<>();

    @Override
    public Integer call() throws Exception {
        if (plot != null && plotter() == null) {
            throw new EvalException("--plot is in the bench jar: " + PLOT_COMMAND);
        }
        if (plot != null && !sweep) {
            throw new EvalException("--plot draws the --sweep curve: give both");
        }
        List<EvalReport.Floor> allFloors = floors();
        List<QuestionFile> sets = new ArrayList<>();
        for (Path f : files) {
            sets.add(QuestionFile.load(f));
        }
        List<SearchBackend> backends = backends();
        try {
            if (dump != null) {
                writeDump(sets);
            }
            List<EvalSummary> summaries = new ArrayList<>();
            List<EvalReport.Verdict> verdicts = new ArrayList<>();
            StringBuilder text = new StringBuilder();
            for (QuestionFile set : sets) {
                List<EvalSummary> sameSet = new ArrayList<>();
                for (SearchBackend b : backends) {
                    List<QuestionResult> results = EvalRun.run(b, set);
                    EvalSummary s = EvalSummary.of(set.set(), b.name(), results);
                    sameSet.add(s);
                    if (misses) {
                        text.append(EvalReport.misses(b.name(), results));
                    }
                    if (sweepMidpoint && b instanceof InProcessBackend) {
                        text.append(midpointCurve(b, set).table()).append('\n');
                    }
                    if (sweep && b instanceof InProcessBackend) {
                        GateCurve curve = GateCurve.of(set.set(), results, 0.05);
                        text.append(curve.table()).append('\n');
                        if (plot != null) {
                            text.append("wrote ").append(plotter().write(curve, defaultThresholds.get(firstProject(set)), plot))
                                    .append('\n');
                        }
                    }
                }
                // Floors judge the search under test, never the baseline.
                verdicts.addAll(EvalReport.judge(sameSet.get(0), allFloors));
                summaries.addAll(sameSet);
                text.append(EvalReport.table(sameSet)).append('\n');
            }
            if (json) {
                System.out.println(JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build()
                        .writeValueAsString(EvalReport.json(summaries, verdicts)));
            } else {
                System.out.print(text);
                System.out.print(EvalReport.verdicts(verdicts));
            }
            return verdicts.stream().allMatch(EvalReport.Verdict::met) ? 0 : FLOOR_NOT_MET;
        } finally {
            for (SearchBackend b : backends) {
                b.close();
            }
        }
    }

    private List<SearchBackend> backends() throws Exception {
        List<SearchBackend> out = new ArrayList<>();
        boolean inProcess = projects.config != null || projects.db != null || !projects.projects.isEmpty();
        if (url != null) {
            if (inProcess || baseline || sweep || sweepMidpoint || dump != null) {
                throw new EvalException("--url asks a running server; it does not combine with --project, --config, --db, --baseline, "
                        + "--sweep, --sweep-midpoint or --dump");
            }
            out.add(new McpBackend(url, System.getenv(Environment.AUTH_TOKEN), Duration.ofSeconds(timeoutSeconds)));
            return out;
        }
        if (sweep && sweepMidpoint) {
            throw new EvalException("--sweep opens the gates and --sweep-midpoint needs them: give one of the two");
        }
        catalog = new ProjectCatalog();
        ServerEnvironment env = ServerEnvironment.read(System.getenv());
        SearchService search = OfflineProjects.load(projects.resolve(env), env, catalog);
        searchService = search;
        if (sweep) {
            for (Project p : List.copyOf(catalog.all())) {
                defaultThresholds.put(p.name(), p.gate().threshold());
                catalog.put(p.withGate(new RelevanceGate(0)));
            }
        }
        out.add(new InProcessBackend(search));
        if (baseline) {
            Bm25Baseline bm25 = new Bm25Baseline(catalog.all());
            out.add(bm25);
            if (FusionBaseline.applies(catalog)) {
                out.add(new FusionBaseline(bm25, search, catalog));
            }
        }
        return out;
    }

    private void writeDump(List<QuestionFile> sets) throws Exception {
        try (Bm25Baseline bm25 = new Bm25Baseline(catalog.all());
             Writer out = Files.newBufferedWriter(dump)) {
            CandidateDump d = new CandidateDump(searchService, bm25);
            for (QuestionFile set : sets) {
                d.write(set, out);
            }
        }
    }

    /** The set run once per midpoint; every project is given back its own evidence afterwards. */
    private MidpointCurve midpointCurve(SearchBackend backend, QuestionFile set) throws Exception {
        List<Project> original = List.copyOf(catalog.all());
        List<MidpointCurve.Point> points = new ArrayList<>();
        try {
            int steps = (int) Math.round((MIDPOINT_HIGH - MIDPOINT_LOW) / MIDPOINT_STEP);
            for (int i = 0; i <= steps; i++) {
                double m = Math.round((MIDPOINT_LOW + i * MIDPOINT_STEP) * 1000) / 1000.0;
                for (Project p : original) {
                    if (p.cosineEvidence().calibrated()) {
                        catalog.put(p.withCosineEvidence(new CosineEvidence(m, p.cosineEvidence().width())));
                    }
                }
                points.add(MidpointCurve.Point.of(m, EvalSummary.of(set.set(), backend.name(), EvalRun.run(backend, set))));
            }
        } finally {
            original.forEach(catalog::put);
        }
        return new MidpointCurve(set.set(), points);
    }

    private static String firstProject(QuestionFile set) {
        return set.questions().get(0).project();
    }

    private List<EvalReport.Floor> floors() {
        List<EvalReport.Floor> out = new ArrayList<>();
        floors.forEach(f -> out.add(EvalReport.Floor.parse(f)));
        add(out, "hit1", minHit1);
        add(out, "hit5", minHit5);
        add(out, "hit10", minHit10);
        add(out, "mrr", minMrr);
        add(out, "kept", minKept);
        add(out, "refused", minRefused);
        return out;
    }

    private static void add(List<EvalReport.Floor> out, String metric, Double min) {
        if (min != null) {
            out.add(new EvalReport.Floor(metric, min));
        }
    }
}
