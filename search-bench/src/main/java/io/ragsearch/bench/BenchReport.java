package io.ragsearch.bench;

import io.ragsearch.contract.calibration.Calibration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Everything a bench run measured; rendered as JSON and as Markdown tables. */
record BenchReport(String command, String startedAt, Machine machine, boolean quick, Map<String, Calibration> calibrations,
                   Map<String, Integer> autoConcurrency, List<LoadCell> load, RawOnnxRun.Result raw, LoadCell endToEnd,
                   double efficiency, List<ScalingRun.Point> scaling, Map<String, Double> headline) {

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "Machine: %s, %d cores (%s, %.0f MHz), %.1f GiB, %s. Run: `%s`, %s.%n%n",
                machine.cpu(), machine.cores(), machine.vector(), machine.mhz(), machine.memoryBytes() / 1073741824.0, machine.java(),
                command, startedAt));
        md.append("### Headline\n\n| figure | value |\n|---|---|\n");
        headline.forEach((k, v) -> md.append(String.format(Locale.ROOT, "| %s | %.3f |%n", k, v)));
        md.append("\n### Load table\n\n")
                .append("| corpus | rerank | permits | concurrent | searches | total s | search p50 ms | p95 ms | livez p50 ms | p99 ms | max ms | "
                        + "peak MiB | predicted MiB | busy | failed |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (LoadCell c : load) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %d | %.1f | %.0f | %.0f | %.1f | %.1f | %.1f | %d | %d | %d | %d |%n",
                    c.corpus(), c.rerank(), c.rerankPermits(), c.concurrentSearches(), c.searches(), c.totalSeconds(), c.searchP50Ms(),
                    c.searchP95Ms(), c.livezP50Ms(), c.livezP99Ms(), c.livezMaxMs(), c.peakBytes() >> 20, c.predictedPeakBytes() >> 20,
                    c.busy(), c.failed()));
        }
        md.append(String.format(Locale.ROOT, "%n### Efficiency%n%nRaw ONNX Runtime, same model and pair batches, %d threads: "
                        + "%.1f candidates/s, %.1f GFLOP/s (rough peak of this CPU: %.0f GFLOP/s, %.1f %%).%n"
                        + "Through the MCP search tool (%s, rerank %s, %d concurrent searches): %.1f candidates/s.%n"
                        + "End-to-end / raw: **%.2f**.%n",
                raw.threads(), raw.candidatesPerSecond(), raw.gflopPerSecond(), machine.peakGflops(),
                100 * raw.gflopPerSecond() / machine.peakGflops(), endToEnd.corpus(), endToEnd.rerank(), endToEnd.concurrentSearches(),
                endToEnd.candidatesPerSecond(), efficiency));
        md.append("\n### Scaling\n\n| multiple | documents | articles | index build s | search mean ms |\n|---|---|---|---|---|\n");
        for (ScalingRun.Point p : scaling) {
            md.append(String.format(Locale.ROOT, "| %d× | %d | %d | %.2f | %.1f |%n", p.multiple(), p.documents(), p.articles(),
                    p.buildSeconds(), p.searchMeanMs()));
        }
        return md.toString();
    }
}
