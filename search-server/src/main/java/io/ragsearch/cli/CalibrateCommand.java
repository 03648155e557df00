package io.ragsearch.cli;

import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.calibrate.CalibrationSettings;
import io.ragsearch.calibrate.Calibrator;
import io.ragsearch.calibrate.MemoryProbe;
import io.ragsearch.calibrate.NativeMemorySettings;
import io.ragsearch.calibrate.PeakVerifier;
import io.ragsearch.config.ConfigLoader;
import io.ragsearch.config.ConfigOverrides;
import io.ragsearch.config.ServerEnvironment;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.server.SettingsResolver;
import io.ragsearch.embed.ModelRegistry;
import io.ragsearch.embed.SessionSettings;
import io.ragsearch.rerank.Reranker;
import io.ragsearch.rerank.RerankerFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** Measures the rerank memory cost in this process and prints the calibration JSON. */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
        description = "Measure what one concurrent rerank costs in memory (the JSON that GET /calibration serves). "
                + "With --verify, also fire 4×N concurrent worst-case reranks under N permits and compare the peak "
                + "with the prediction resident + N × perRun.")
final class CalibrateCommand implements Callable<Integer> {

    @Option(names = "--config", paramLabel = "FILE", description = "Configuration whose projects name rerankers.")
    Path config;

    @Option(names = "--reranker", paramLabel = "NAME|DIR",
            description = "Calibrate this reranker instead: 'minilm-pair' (cost stand-in) or a directory with model.onnx + tokenizer.json.")
    String reranker;

    @Option(names = "--max-seq-len", paramLabel = "N", description = "Longest pair in tokens (default: the reranker's).")
    Integer maxSeqLen;

    @Option(names = "--batch", paramLabel = "N", description = "Pairs per rerank (default 32, the search candidates).")
    int batch = 32;

    @Option(names = "--intra-op-threads", paramLabel = "N", description = "ONNX Runtime threads per run (default 1).")
    Integer intraOpThreads;

    @Option(names = "--arena", paramLabel = "MODE",
            description = "ONNX Runtime memory mode: shrink (default), keep or off (see docs/memory.md).")
    String arena;

    @Option(names = "--levels", split = ",", paramLabel = "K", description = "Burst sizes (default 1,2,4,1).")
    List<Integer> levels;

    @Option(names = "--verify", split = ",", paramLabel = "N", description = "Rerank concurrencies to verify, e.g. 1,2,4.")
    List<Integer> verify = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        NativeMemorySettings.apply();
        ServerEnvironment env = ServerEnvironment.read(System.getenv());
        ServerSettings file = env.applyTo(config == null ? ServerSettings.EMPTY : ConfigLoader.load(config));
        SessionSettings session = SettingsResolver.rerank(file).session();
        int threads = intraOpThreads != null ? intraOpThreads : session.intraOpThreads();
        try (ModelRegistry registry = new ModelRegistry()) {
            RerankerFactory factory = new RerankerFactory(registry, new SessionSettings(threads,
                    arena != null ? SessionSettings.Arena.parse(arena) : session.arena()));
            List<Reranker> rerankers = new ArrayList<>();
            for (ServerSettings.RerankerRef ref : references(file)) {
                rerankers.add(factory.create(SettingsResolver.reranker(ref, env)));
            }
            CalibrationSettings configured = SettingsResolver.calibration(file, env);
            MemoryProbe probe = MemoryProbe.detect(configured.rssProbe());
            Calibration calibration = new Calibrator(probe, levels != null ? levels : configured.levels())
                    .calibrate(rerankers, batch);
            JsonMapper json = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
            if (measuredNothing(rerankers, calibration)) {
                // Shown, never passed off as a cost: a per-run cost of 0 would let the budget allow any concurrency.
                System.out.println(json.writeValueAsString(calibration));
                System.err.println(nothingMeasured(calibration));
                return MEASURED_NOTHING;
            }
            if (verify.isEmpty()) {
                System.out.println(json.writeValueAsString(calibration));
                return 0;
            }
            if (rerankers.isEmpty()) {
                throw new IllegalArgumentException("--verify needs a reranker (--reranker minilm-pair, or a configuration naming one)");
            }
            Reranker costliest = rerankers.stream().filter(r -> r.digest().equals(calibration.rerankerDigest())).findFirst()
                    .orElse(rerankers.get(0));
            List<PeakVerifier.Result> results = new ArrayList<>();
            List<Map<String, Object>> skipped = new ArrayList<>();
            long limit = probe.limit().orElse(0);
            PeakVerifier verifier = new PeakVerifier(probe);
            for (int n : verify) {
                // A check the prediction says would pass the limit would only get this process killed.
                if (!Calibrator.fits(calibration.residentBytes(), n, calibration.perRunBytes(), limit)) {
                    String why = "predicted peak " + (calibration.predictedPeak(n) >> 20) + " MiB passes 90 % of the memory limit "
                            + (limit >> 20) + " MiB";
                    System.err.println("calibrate: not verifying N=" + n + ": " + why);
                    skipped.add(Map.of("concurrency", n, "predictedPeakBytes", calibration.predictedPeak(n), "reason", why));
                    continue;
                }
                results.add(verifier.verify(costliest, calibration, n));
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("calibration", calibration);
            out.put("verification", results);
            out.put("skipped", skipped);
            System.out.println(json.writeValueAsString(out));
            return 0;
        }
    }

    /** Exit code of a calibration whose runs raised memory no higher than at rest: nothing to publish. */
    static final int MEASURED_NOTHING = 3;

    private static boolean measuredNothing(List<Reranker> rerankers, Calibration calibration) {
        return !rerankers.isEmpty() && calibration.samples() > 0 && calibration.perRunBytes() <= 0;
    }

    static String nothingMeasured(Calibration c) {
        return "calibrate: measured nothing: " + c.samples() + " level(s) of concurrent runs of " + c.reranker() + " (batch "
                + c.batch() + " x " + c.maxSeqLen() + " tokens) peaked no higher than the memory at rest as the " + c.method()
                + " probe sees it; the cost of a run is below what it tells apart from the process's own movement (a busy "
                + "machine, a small model or batch). Not a cost of 0: run again with a larger --batch or --max-seq-len, or on "
                + "a quieter machine";
    }

    private List<ServerSettings.RerankerRef> references(ServerSettings file) {
        if (reranker != null) {
            boolean builtin = reranker.equals(RerankerFactory.STAND_IN);
            return List.of((builtin ? ServerSettings.RerankerRef.ofBuiltin(reranker) : ServerSettings.RerankerRef.ofPath(reranker))
                    .withMaxSeqLen(maxSeqLen));
        }
        if (config == null) {
            return List.of();
        }
        Set<ServerSettings.RerankerRef> refs = new LinkedHashSet<>();
        for (ServerSettings.Project p : ConfigOverrides.projects(file)) {
            if (p.reranker() != null) {
                ServerSettings.RerankerRef r = p.reranker();
                refs.add(maxSeqLen == null ? r : r.withMaxSeqLen(maxSeqLen));
            }
        }
        return List.copyOf(refs);
    }
}
