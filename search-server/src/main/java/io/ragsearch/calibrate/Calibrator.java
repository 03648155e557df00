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
import java.util.Optional;
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
 * read from the memory counter. Readings are taken outside the JVM heap where its residency can be
 * counted ({@link MemoryAccounting}): the heap's pages become resident as garbage cycles through
 * them, and read whole they would be charged to the runs and again to resident. Cost per run =
 * max over bursts of (peak − first rest) / k; resident = the higher of the first and the final
 * rest level plus the heap's charge (its reservation; without the split, the heap still to
 * commit). A burst is skipped when the runs measured so far say it would pass 90 % of the memory
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
     * Added to the measured cost per run when the heap is split off. Outside the heap the
     * measurement is exact while runs do not outnumber cores (peaks 0.96–1.00 of the unmargined
     * prediction at N = 1, 2 with a pre-touched heap); 10 % covers that spread. With more
     * concurrent runs than cores the arena now and then keeps regions another run still uses
     * (3 of 16 checks at N = 4 on 2 cores: up to 290 MiB above 4 × the cost), which this does not
     * cover: the operator never runs more reranks than cores (its CPU cap), and a margin for that
     * case would cost the field's second run (docs/memory.md).
     */
    static final double OUTSIDE_HEAP_MARGIN = 0.10;
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
    private final MemoryAccounting memory;
    private final List<Integer> levels;

    public Calibrator(MemoryProbe probe, List<Integer> levels) {
        this(probe, levels, HeapResidency.locate());
    }

    /** {@code heap} empty: the heap is read as part of every level (the estimator before the split). */
    Calibrator(MemoryProbe probe, List<Integer> levels, Optional<HeapResidency> heap) {
        this.probe = probe;
        this.memory = new MemoryAccounting(probe, heap);
        this.levels = List.copyOf(levels);
    }

    /** Calibrates every reranker; the costliest one is the headline, all are listed. */
    public Calibration calibrate(List<Reranker> rerankers, int batch) {
        Map<String, Object> settings = NativeMemorySettings.apply();
        if (rerankers.isEmpty()) {
            return new Calibration(probe.method().wire(), limitOrNull(), baseline() + memory.heapCharge(), 0, 0, 0, 0, 0, null, now(),
                    "none", null, List.of(), settings, probe.reason() + "; " + memory.describe() + "; no reranker configured, so no rerank cost", List.of());
        }
        List<Calibration> each = new ArrayList<>();
        for (Reranker r : rerankers) {
            Map<String, Object> withArena = new java.util.LinkedHashMap<>(settings);
            withArena.put("onnxArena", r.arenaMode());
            each.add(calibrate(r, batch, withArena));
        }
        Calibration top = each.stream().max(Comparator.comparingLong(Calibration::perRunBytes)).orElseThrow();
        return top.withRerankers(each);
    }

    private Calibration calibrate(Reranker reranker, int batch, Map<String, Object> settings) {
        PairBatch worst = PairBatch.worstCase(batch, reranker.maxSeqLen());
        // One worst-case run first: the JVM heap and the session reach their working size, which
        // belongs to the resident memory, not to the cost of a run.
        reranker.run(worst);
        long firstRest = atRest(reranker);
        long resident = firstRest + memory.heapCharge();
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
            LOG.info("calibration {}: {} concurrent run(s) of {}x{} peaked at {} MiB ({} MiB per run above {} MiB at rest{}, {} s)",
                    reranker.name(), k, batch, reranker.maxSeqLen(), level.peakBytes() >> 20, level.perRunBytes() >> 20,
                    firstRest >> 20, memory.heapCounted() ? " outside the heap" : "", String.format(java.util.Locale.ROOT, "%.1f", level.seconds()));
        }
        // Levels right after a big burst still hold memory the next run reuses (and its end returns);
        // the rest before the first burst and after the last one are what the process keeps. The
        // heap's charge belongs to resident: it is what the heap can hold whatever reranking does.
        resident = Math.max(firstRest, atRest(reranker)) + memory.heapCharge();
        if (memory.heapCounted()) {
            perRun = (long) Math.ceil(perRun * (1 + OUTSIDE_HEAP_MARGIN));
        }
        return new Calibration(probe.method().wire(), limitOrNull(), resident, perRun, measured.size(), batch,
                reranker.maxSeqLen(), reranker.intraOpThreads(), reranker.digest(), now(), reranker.name(), reranker.trained(),
                measured, settings, probe.reason() + "; " + memory.describe(), List.of());
    }

    /** Memory at rest (outside the heap where it is counted): after a tiny run, whose end returns the arena's free chunks. */
    private long atRest(Reranker reranker) {
        reranker.run(PairBatch.worstCase(1, 8));
        return baseline();
    }

    /** Whether k more runs at perRun stay under 90 % of the limit (0: no limit; perRun 0: not known yet). */
    public static boolean fits(long resident, int k, long perRun, long limit) {
        return limit <= 0 || perRun <= 0 || resident + (long) k * perRun <= limit * SAFE_SHARE_OF_LIMIT;
    }

    private Calibration.Level burst(Reranker reranker, PairBatch worst, int k, long atRest) {
        ExecutorService pool = Executors.newFixedThreadPool(k);
        long t0 = System.nanoTime();
        try (PeakTracker peak = memory.track()) {
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
            // The level reports the whole counter's peak; the cost is what the runs added outside the heap.
            return new Calibration.Level(k, peak.peak(), Math.max(0, (peak.peakOutsideHeap() - atRest) / k),
                    (System.nanoTime() - t0) / 1e9);
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
        return memory.outsideHeap();
    }

    private Long limitOrNull() {
        OptionalLong l = probe.limit();
        return l.isPresent() ? l.getAsLong() : null;
    }

    private static String now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
