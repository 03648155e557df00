package io.ragsearch.calibrate;

import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.rerank.PairBatch;
import io.ragsearch.rerank.Reranker;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Measures what one concurrent rerank costs in memory, inside the process and under its own
 * limit. Procedure, per reranker: one worst-case warm-up run and the first rest level; then
 * bursts of 1, 2, 4, 1 concurrent worst-case runs (largest batch, longest pairs; each thread
 * runs max(2, k) times back to back, so runs overlap as under sustained load), each burst's peak
 * read from the memory counter. Resident = the highest rest level (before the first burst, before
 * each burst, after the last), plus the heap the JVM may still commit; cost per run = max over
 * bursts of (peak − highest rest) / k, plus a margin of {@link #MARGIN_PERCENT} %. A burst is
 * skipped when the runs measured so far say it would pass 90 % of the memory limit: calibration
 * must never be what kills the pod. docs/memory.md has the measurements.
 */
public final class Calibrator {

    private static final Logger LOG = LoggerFactory.getLogger(Calibrator.class);
    /**
     * Bursts of 1, 2 and 4 runs (the cost per run is flat in concurrency; more adds time, not
     * information), then one run more: it reuses what the largest burst left in the arena and
     * its end returns it, so calibration hands over a process at its true rest level.
     */
    public static final List<Integer> DEFAULT_LEVELS = List.of(1, 2, 4, 1);
    private static final double SAFE_SHARE_OF_LIMIT = 0.9;
    /**
     * Each of a burst's k threads runs max(2, k) times back to back: under sustained load runs
     * start and end at different moments, and arena chunks freed by one run while others hold
     * theirs cost more than k runs started together (a synchronised burst under-predicted a
     * staggered load by 12 %, two rounds by 7 %).
     */
    static int runsPerThread(int k) {
        return Math.max(2, k);
    }

    private final MemoryProbe probe;
    private final List<Integer> levels;

    public Calibrator(MemoryProbe probe, List<Integer> levels) {
        this.probe = probe;
        this.levels = List.copyOf(levels);
    }

    /** Calibrates every reranker; the costliest one is the headline, all are listed. */
    public Calibration calibrate(List<Reranker> rerankers, int batch) {
        Map<String, Object> settings = NativeMemorySettings.apply();
        if (rerankers.isEmpty()) {
            return new Calibration(probe.method().wire(), limitOrNull(), baseline(), 0, 0, 0, 0, 0, null, now(),
                    "none", null, List.of(), settings, probe.reason() + "; no reranker configured, so no rerank cost", List.of());
        }
        List<Calibration> each = new ArrayList<>();
        for (Reranker r : rerankers) {
            Map<String, Object> withArena = new java.util.LinkedHashMap<>(settings);
            withArena.put("onnxArena", r.arenaMode());
            each.add(calibrate(r, batch, withArena));
        }
        Calibration top = each.stream().max(Comparator.comparingLong(Calibration::perRunBytes)).orElseThrow();
        return new Calibration(top.method(), top.memoryLimitBytes(), top.residentBytes(), top.perRunBytes(), top.samples(),
                top.batch(), top.maxSeqLen(), top.intraOpThreads(), top.rerankerDigest(), top.measuredAt(), top.reranker(),
                top.trained(), top.levels(), top.memorySettings(), top.methodReason(), each);
    }

    private Calibration calibrate(Reranker reranker, int batch, Map<String, Object> settings) {
        PairBatch worst = PairBatch.worstCase(batch, reranker.maxSeqLen());
        // One worst-case run first: the JVM heap and the session reach their working size, which
        // belongs to the resident memory, not to the cost of a run.
        reranker.run(worst);
        long firstRest = atRest(reranker);
        long highestRest = firstRest;
        OptionalLong limit = probe.limit();
        List<Calibration.Level> bursts = new ArrayList<>();
        long skipCost = 0;
        for (int k : levels) {
            // The skip test uses the cost against the first (lowest) rest: the larger figure, so
            // calibration never runs a burst that could pass 90 % of the limit.
            if (!fits(highestRest, k, skipCost, limit.orElse(0))) {
                LOG.info("calibration: skipping {} concurrent runs: {} + {} x {} would pass 90% of the limit {}",
                        k, highestRest, k, skipCost, limit.getAsLong());
                continue;
            }
            highestRest = Math.max(highestRest, atRest(reranker)); // every burst starts with the arena's free chunks returned
            Calibration.Level level = burst(reranker, worst, k, firstRest);
            bursts.add(level);
            skipCost = Math.max(skipCost, level.perRunBytes());
            LOG.info("calibration {}: {} concurrent run(s) of {}x{} peaked at {} MiB ({} s)", reranker.name(), k, batch,
                    reranker.maxSeqLen(), level.peakBytes() >> 20, String.format(java.util.Locale.ROOT, "%.1f", level.seconds()));
        }
        highestRest = Math.max(highestRest, atRest(reranker));
        // The rest level climbs during calibration although the heap's committed size does not:
        // the JVM commits its heap early but its pages become resident only as garbage cycles
        // through them (measured: 234 → 358 MiB at rest with -Xmx256m, docs/memory.md). That
        // growth belongs to resident; charging it to runs as well (cost against the first rest)
        // counted it twice. So the cost is taken above the highest rest, and a margin covers
        // what sustained load adds beyond the calibration's bursts.
        List<Calibration.Level> measured = new ArrayList<>();
        long costAbove = 0;
        for (Calibration.Level l : bursts) {
            long cost = Math.max(0, (l.peakBytes() - highestRest) / l.concurrency());
            measured.add(new Calibration.Level(l.concurrency(), l.peakBytes(), cost, l.seconds()));
            costAbove = Math.max(costAbove, cost);
        }
        long perRun = withMargin(costAbove);
        long resident = highestRest + heapStillToCommit();
        LOG.info("calibration {}: resident {} MiB (highest rest {} MiB, first rest {} MiB), per run {} MiB ({} MiB measured + {} %)",
                reranker.name(), resident >> 20, highestRest >> 20, firstRest >> 20, perRun >> 20, costAbove >> 20, MARGIN_PERCENT);
        return new Calibration(probe.method().wire(), limitOrNull(), resident, perRun, measured.size(), batch,
                reranker.maxSeqLen(), reranker.intraOpThreads(), reranker.digest(), now(), reranker.name(), reranker.trained(),
                measured, settings, probe.reason(), List.of());
    }

    /**
     * Margin on the measured cost per run: the 4×N staggered load of the peak check reached up to
     * 5 % more per run than the calibration's own bursts (more fragmentation in the arena over
     * more runs), and repeats vary by a few percent more (docs/memory.md).
     */
    static final int MARGIN_PERCENT = 10;

    static long withMargin(long cost) {
        return cost + cost * MARGIN_PERCENT / 100;
    }

    /** Memory at rest: after a tiny run, whose end returns the arena's free chunks. */
    private long atRest(Reranker reranker) {
        reranker.run(PairBatch.worstCase(1, 8));
        return baseline();
    }

    /** Whether k more runs at perRun stay under 90 % of the limit (0: no limit; perRun 0: not known yet). */
    static boolean fits(long resident, int k, long perRun, long limit) {
        return limit <= 0 || perRun <= 0 || resident + (long) k * perRun <= limit * SAFE_SHARE_OF_LIMIT;
    }

    private Calibration.Level burst(Reranker reranker, PairBatch worst, int k, long atRest) {
        ExecutorService pool = Executors.newFixedThreadPool(k);
        long t0 = System.nanoTime();
        try (PeakTracker peak = new PeakTracker(probe)) {
            List<Future<?>> runs = new ArrayList<>();
            for (int i = 0; i < k; i++) {
                runs.add(pool.submit(() -> {
                    for (int r = 0; r < runsPerThread(k); r++) {
                        reranker.run(worst);
                    }
                    return null;
                }));
            }
            for (Future<?> f : runs) {
                f.get();
            }
            long p = peak.peak();
            return new Calibration.Level(k, p, Math.max(0, (p - atRest) / k), (System.nanoTime() - t0) / 1e9);
        } catch (Exception e) {
            throw new IllegalStateException("calibration run failed: " + e.getMessage(), e);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * No forced collection: it would shrink the heap below the size a working server keeps, and
     * the prediction would then fall short of real peaks. A moment's pause lets runs' threads settle.
     */
    private long baseline() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return probe.current();
    }

    /**
     * Heap the JVM may still commit up to its maximum: memory the process can take at any time
     * whatever reranking does, so it belongs to resident (set -Xmx or MaxRAMPercentage to keep it small).
     */
    static long heapStillToCommit() {
        Runtime rt = Runtime.getRuntime();
        return Math.max(0, rt.maxMemory() - rt.totalMemory());
    }

    private Long limitOrNull() {
        OptionalLong l = probe.limit();
        return l.isPresent() ? l.getAsLong() : null;
    }

    private static String now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
