package io.ragsearch.bench;

import io.ragsearch.rerank.PairBatch;
import io.ragsearch.rerank.Reranker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The machine's achievable reranking speed: the same model and the same pair batches run
 * straight on an ONNX Runtime session from {@code threads} threads, no server in between.
 */
final class RawOnnxRun {

    /** MiniLM-L6: 6 layers, hidden size 384, feed-forward 4 × 384. */
    private static final int LAYERS = 6;
    private static final double HIDDEN = 384;

    private RawOnnxRun() {
    }

    record Result(int threads, int batches, int candidates, double seconds, double candidatesPerSecond, double gflopPerSecond) {
    }

    /** Matrix-multiply FLOPs of one forward pass over a batch padded to its width. */
    static double flops(PairBatch b) {
        double l = b.width();
        double perRowPerLayer = 24 * l * HIDDEN * HIDDEN + 4 * l * l * HIDDEN;
        return b.rows() * LAYERS * perRowPerLayer;
    }

    static Result run(Reranker reranker, List<PairBatch> batches, int threads, int passes) throws Exception {
        reranker.run(batches.get(0)); // warm
        List<PairBatch> work = new ArrayList<>();
        for (int p = 0; p < passes; p++) {
            work.addAll(batches);
        }
        AtomicInteger next = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long t0 = System.nanoTime();
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            futures.add(pool.submit(() -> {
                for (int i; (i = next.getAndIncrement()) < work.size(); ) {
                    reranker.run(work.get(i));
                }
                return null;
            }));
        }
        for (Future<?> f : futures) {
            f.get();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        pool.shutdown();
        int candidates = work.stream().mapToInt(PairBatch::rows).sum();
        double flops = work.stream().mapToDouble(RawOnnxRun::flops).sum();
        return new Result(threads, work.size(), candidates, seconds, candidates / seconds, flops / seconds / 1e9);
    }
}
