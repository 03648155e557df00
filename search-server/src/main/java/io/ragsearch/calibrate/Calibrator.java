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
 * read from the memory counter. Cost per run = max over bursts of (peak − first rest) / k;
 * resident = the higher of the first and the final rest level, plus the heap the JVM may still
 * commit. A burst is skipped when the runs measured so far say it would pass 90 % of the memory
 * limit: calibration must never be what kills the pod. docs/memory.md has the measurements.
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
        long resident = firstRest;
        OptionalLong limit = probe.limit();
        List<Calibration.Level> measured = new ArrayList<>();
        long perRun = 0;
        for (int k : levels) {
            if (!fits(resident, k, perRun, limit.orElse(0))) {
                LOG.info("calibration: skipping {} concurrent runs: {} + {} x {} would pass 90% of the limit {}",
                        k, resident, k, perRun, limit.getAsLong());
                continue;
            }
            atRest(reranker); // every burst starts with the arena's free chunks returned
            // Cost against the first rest level, the lowest: memory that fragmentation leaves
            // behind between bursts is charged to the runs that caused it.
            Calibration.Level level = burst(reranker, worst, k, firstRest);
            measured.add(level);
            perRun = Math.max(perRun, level.perRunBytes());
            LOG.info("calibration {}: {} concurrent run(s) of {}x{} peaked at {} MiB ({} MiB per run above {} MiB at rest, {} s)",
                    reranker.name(), k, batch, reranker.maxSeqLen(), level.peakBytes() >> 20, level.perRunBytes() >> 20,
                    firstRest >> 20, String.format(java.util.Locale.ROOT, "%.1f", level.seconds()));
        }
        // Levels right after a big burst still hold memory the next run reuses (and its end returns);
        // the rest before the first burst and after the last one are what the process keeps. The
        // heap the JVM may still commit belongs to resident (no peak used it).
        resident = Math.max(firstRest, atRest(reranker)) + heapStillToCommit();
        return new Calibration(probe.method().wire(), limitOrNull(), resident, perRun, measured.size(), batch,
                reranker.maxSeqLen(), reranker.intraOpThreads(), reranker.digest(), now(), reranker.name(), reranker.trained(),
                measured, settings, probe.reason(), List.of());
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
