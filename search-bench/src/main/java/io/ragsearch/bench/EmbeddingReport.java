package io.ragsearch.bench;

import java.util.List;
import java.util.Locale;

/** What `ragsearch-bench embedding` measured in one run, and the Markdown it prints. */
record EmbeddingReport(String command, String when, Machine machine, String model, String reference, int articles, int queries,
                       Memory memory, List<Throughput> throughput, Latency queryEmbedding, Latency hybridSearch,
                       Latency lexicalSearch, Latency referenceQueryEmbedding, Latency referenceHybridSearch, Agreement agreement) {

    /** Lowest cosine between the server's and the raw path's vector of the same passage that counts as the same vector. */
    static final double MIN_AGREEMENT = 0.9999;

    /**
     * Process RSS along the server's loading path: before the model, after its tokenizer alone,
     * after the registry's ONNX session, after TextEmbedder.load (its own tokenizer and a probe
     * run; the first tokenizer closed), after embedding the passages.
     */
    record Memory(long beforeBytes, long tokenizerBytes, long sessionBytes, long loadedBytes, long afterPassagesBytes) {
        Memory(long beforeBytes, long tokenizerBytes, long sessionBytes, long loadedBytes) {
            this(beforeBytes, tokenizerBytes, sessionBytes, loadedBytes, 0);
        }

        Memory withPassages(long rss) {
            return new Memory(beforeBytes, tokenizerBytes, sessionBytes, loadedBytes, rss);
        }

        long modelBytes() {
            return loadedBytes - beforeBytes;
        }

        long passagesBytes() {
            return afterPassagesBytes - loadedBytes;
        }
    }

    /**
     * One model at one thread count: the same batches through TextEmbedder and through a bare
     * session; flops is the batches' arithmetic counted from the encoder's shape (EncoderShape).
     */
    record Throughput(String model, int threads, int passages, long tokens, double tokenizeSeconds, double serverSeconds, double rawSeconds,
                      double minCosine, double maxAbsDiff, double flops) {

        double rawGflops() {
            return flops / rawSeconds / 1e9;
        }

        double serverPassagesPerSecond() {
            return passages / serverSeconds;
        }

        double rawPassagesPerSecond() {
            return passages / rawSeconds;
        }

        double serverTokensPerSecond() {
            return tokens / serverSeconds;
        }

        double rawTokensPerSecond() {
            return tokens / rawSeconds;
        }

        /** Server throughput over raw throughput: 1 means the server adds nothing. */
        double ratio() {
            return rawSeconds / serverSeconds;
        }

        boolean agrees() {
            return minCosine >= MIN_AGREEMENT;
        }
    }

    /**
     * The default model's vectors against the reference's: cosine of each passage's and each
     * query's two vectors, and the share of a query's ten nearest passages the two rankings share.
     */
    record Agreement(int passages, double passageMin, double passageMean, int queries, double queryMin, double queryMean,
                     double top10Overlap) {
    }

    record Latency(int samples, double p50Ms, double p95Ms) {
        static Latency of(List<Double> ms) {
            return new Latency(ms.size(), LoadRunner.percentile(ms, 50), LoadRunner.percentile(ms, 95));
        }
    }

    boolean vectorsAgree() {
        return throughput.stream().allMatch(Throughput::agrees);
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "Machine: %s, %d cores (%s, %.0f MHz), %.1f GiB, %s. Run: `%s`, %s.%n%n",
                machine.cpu(), machine.cores(), machine.vector(), machine.mhz(), machine.memoryBytes() / (double) (1L << 30),
                machine.java(), command, when));
        md.append(String.format(Locale.ROOT, "Model %s; %d live articles embedded as passages; %d queries.%n%n", model, articles, queries));
        md.append("| figure | value |\n|---|---|\n");
        row(md, "RSS before the model (MiB)", mib(memory.beforeBytes()));
        row(md, "model resident: RSS after loading − before (MiB)", mib(memory.modelBytes()));
        row(md, "tokenizer alone: RSS after loading it − before (MiB)", mib(memory.tokenizerBytes() - memory.beforeBytes()));
        row(md, "ONNX session: RSS after the registry's load − after the tokenizer (MiB)",
                mib(memory.sessionBytes() - memory.tokenizerBytes()));
        row(md, "TextEmbedder.load on that session (own tokenizer, probe run; first tokenizer closed) (MiB)",
                mib(memory.loadedBytes() - memory.sessionBytes()));
        row(md, "RSS growth from embedding the passages (arena, buffers) (MiB)", mib(memory.passagesBytes()));
        for (Throughput t : throughput) {
            String at = " at " + t.threads() + (t.threads() == 1 ? " thread" : " threads");
            String m = t.model() + ": ";
            row(md, m + "passages/s server" + at, f1(t.serverPassagesPerSecond()));
            row(md, m + "passages/s raw ONNX" + at, f1(t.rawPassagesPerSecond()));
            row(md, m + "passages per CPU-second, raw ONNX" + at, f2(t.rawPassagesPerSecond() / t.threads()));
            row(md, m + "tokens/s server" + at, f0(t.serverTokensPerSecond()));
            row(md, m + "tokens/s raw ONNX" + at, f0(t.rawTokensPerSecond()));
            row(md, m + "GFLOP/s achieved, raw ONNX" + at + "; share of the fp32 / int8 peak", String.format(Locale.ROOT,
                    "%.1f; %.0f %% / %.0f %%", t.rawGflops(), 100 * t.rawGflops() / (t.threads() * machine.fp32PeakPerCore()),
                    100 * t.rawGflops() / (t.threads() * machine.int8PeakPerCore())));
            row(md, m + "tokenizing alone, share of the server's time" + at,
                    String.format(Locale.ROOT, "%.3f", t.tokenizeSeconds() / t.serverSeconds()));
            row(md, m + "server / raw throughput" + at, String.format(Locale.ROOT, "%.3f", t.ratio()));
            row(md, m + "vector agreement server vs raw" + at + ": min cosine, max abs diff",
                    String.format(Locale.ROOT, "%.6f, %.2e", t.minCosine(), t.maxAbsDiff()));
        }
        for (int threads : throughput.stream().mapToInt(Throughput::threads).distinct().toArray()) {
            List<Throughput> same = throughput.stream().filter(t -> t.threads() == threads).toList();
            if (same.size() == 2) {
                row(md, model + " / " + reference + " passages/s, raw ONNX at " + threads + (threads == 1 ? " thread" : " threads"),
                        String.format(Locale.ROOT, "%.2f (server %.2f)", same.get(1).rawSeconds() / same.get(0).rawSeconds(),
                                same.get(1).serverSeconds() / same.get(0).serverSeconds()));
            }
        }
        row(md, model + ": query embedding p50 / p95 (ms)", f1(queryEmbedding.p50Ms()) + " / " + f1(queryEmbedding.p95Ms()));
        row(md, reference + ": query embedding p50 / p95 (ms)",
                f1(referenceQueryEmbedding.p50Ms()) + " / " + f1(referenceQueryEmbedding.p95Ms()));
        row(md, model + ": search p50 / p95, hybrid (ms)", f1(hybridSearch.p50Ms()) + " / " + f1(hybridSearch.p95Ms()));
        row(md, reference + ": search p50 / p95, hybrid (ms)",
                f1(referenceHybridSearch.p50Ms()) + " / " + f1(referenceHybridSearch.p95Ms()));
        row(md, "search p50 / p95, lexical only (ms)", f1(lexicalSearch.p50Ms()) + " / " + f1(lexicalSearch.p95Ms()));
        row(md, model + " vs " + reference + ": passage cosine min / mean (" + agreement.passages() + ")",
                String.format(Locale.ROOT, "%.5f / %.5f", agreement.passageMin(), agreement.passageMean()));
        row(md, model + " vs " + reference + ": query cosine min / mean (" + agreement.queries() + ")",
                String.format(Locale.ROOT, "%.5f / %.5f", agreement.queryMin(), agreement.queryMean()));
        row(md, model + " vs " + reference + ": top-10 overlap of each query's nearest passages",
                String.format(Locale.ROOT, "%.3f", agreement.top10Overlap()));
        md.append(String.format(Locale.ROOT, "%nPeak per core: %.1f GFLOP/s fp32, %.0f GOP/s int8 at %.0f MHz (%s). The achieved figure "
                        + "counts the matrix products from the encoder's shape (%.1f MFLOP per token in the linear layers, plus "
                        + "attention over the padded width).%n", machine.fp32PeakPerCore(), machine.int8PeakPerCore(), machine.mhz(),
                machine.peakBasis(), EncoderShape.E5_SMALL.linearPerToken() / 1e6));
        md.append(String.format(Locale.ROOT, "%nVector agreement (cosine ≥ %s for every passage at every thread count): %s%n",
                MIN_AGREEMENT, vectorsAgree() ? "PASS" : "FAIL"));
        return md.toString();
    }

    private static String f2(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static void row(StringBuilder md, String figure, String value) {
        md.append("| ").append(figure).append(" | ").append(value).append(" |\n");
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.0f", bytes / (double) (1L << 20));
    }

    private static String f1(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    private static String f0(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }
}
