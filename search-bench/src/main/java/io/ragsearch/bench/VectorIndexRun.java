package io.ragsearch.bench;

import io.ragsearch.index.ExactVectors;
import io.ragsearch.index.HnswVectors;
import io.ragsearch.index.RankedArticle;
import io.ragsearch.index.VectorIndex;
import io.ragsearch.index.VectorMatrix;
import io.ragsearch.index.VectorSearchSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One corpus size: the exact scan and the HNSW graph in each form over the same vectors, built
 * (and persisted, then reopened), then every query run on every variant in turn, recall@k
 * judged against the exact scan of the same query.
 */
final class VectorIndexRun {

    static final int K = 10;
    private static final int WARM_UP_QUERIES = 20;

    /**
     * One index form's build: seconds, reopen-to-first-answer seconds, heap and disk bytes;
     * {@code kept} when the graph a run left in the work directory was reopened instead (no build figures then).
     */
    record Build(String form, double buildSeconds, double buildCpuSeconds, double reopenSeconds, long heapBytes, long diskBytes, long vectorBytes,
                 long graphBytes, long quantizedBytes, boolean kept) {
        Build(String form, long heapBytes) {
            this(form, 0, 0, 0, heapBytes, 0, 0, 0, 0, false);
        }
    }

    /** One search variant's figures. */
    record Search(String form, int candidates, double recall, double p50Ms, double p95Ms, double cpuP50Ms, double cpuP95Ms,
                  long mappedResidentBytes) {
    }

    record Result(int articles, List<Build> builds, List<Search> searches) {
    }

    private record Variant(String form, VectorIndex index, FullSortScan before, int candidates, Path dir) {
        String name() {
            return form + "@" + candidates;
        }

        List<RankedArticle> run(float[] query) {
            return before != null ? before.nearest(query, K)
                    : index instanceof HnswVectors h ? h.nearest(query, K, candidates) : index.nearest(query, K);
        }
    }

    private VectorIndexRun() {
    }

    /**
     * @param forms "float" and/or "int8" (HNSW without / with scalar quantization), "before" (the scan it replaced)
     */
    static Result measure(VectorMatrix matrix, float[][] queries, List<String> forms, int maxConnections, int beamWidth,
                          List<Integer> candidates, Path work, String key) throws IOException {
        List<Build> builds = new ArrayList<>();
        builds.add(new Build("exact", matrix.bytes()));
        List<Variant> variants = new ArrayList<>();
        ExactVectors exact = new ExactVectors(matrix);
        variants.add(new Variant("exact", exact, null, 0, null));
        if (forms.contains("before")) {
            // The same vectors as one array per article: the before figures' memory is their heap too.
            long h0 = MappedMemory.heapUsed();
            FullSortScan before = new FullSortScan(matrix);
            builds.add(new Build("before (array per article, full sort)", Math.max(0, MappedMemory.heapUsed() - h0)));
            variants.add(new Variant("before (array per article, full sort)", null, before, 0, null));
        }
        List<HnswVectors> open = new ArrayList<>();
        try {
            for (String form : forms.stream().filter(f -> f.equals("float") || f.equals("int8")).toList()) {
                VectorSearchSettings settings = new VectorSearchSettings(0, maxConnections, beamWidth, K, form.equals("int8"));
                Path dir = work.resolve(matrix.rows() + "-" + form);
                long h0 = MappedMemory.heapUsed();
                // A graph an earlier run left for the same vectors and settings is reused: at 1M a build is 2,000 CPU-s.
                HnswVectors kept = HnswVectors.openIfCurrent(matrix, settings, dir, key);
                long t0 = System.nanoTime();
                long c0 = CpuTime.process();
                if (kept != null) {
                    kept.close();
                } else {
                    HnswVectors.build(matrix, settings, dir, key).close();
                }
                double buildSeconds = (System.nanoTime() - t0) / 1e9;
                double buildCpuSeconds = (CpuTime.process() - c0) / 1e9;
                long r0 = System.nanoTime();
                HnswVectors reopened = HnswVectors.openIfCurrent(matrix, settings, dir, key);
                if (reopened == null) {
                    throw new IOException("the graph just written to " + dir + " did not reopen");
                }
                reopened.nearest(queries[0], K);
                double reopenSeconds = (System.nanoTime() - r0) / 1e9;
                long heap = Math.max(0, MappedMemory.heapUsed() - h0);
                open.add(reopened);
                builds.add(new Build(form, buildSeconds, buildCpuSeconds, reopenSeconds, heap, MappedMemory.diskBytes(dir, ""),
                        MappedMemory.diskBytes(dir, ".vec"), MappedMemory.diskBytes(dir, ".vex"), MappedMemory.diskBytes(dir, ".veq"),
                        kept != null));
                for (int c : candidates) {
                    variants.add(new Variant(form, reopened, null, c, dir));
                }
            }
            return new Result(matrix.rows(), builds, search(variants, queries));
        } finally {
            for (HnswVectors h : open) {
                h.close();
            }
        }
    }

    private static List<Search> search(List<Variant> variants, float[][] queries) {
        for (int i = 0; i < Math.min(WARM_UP_QUERIES, queries.length); i++) {
            for (Variant v : variants) {
                v.run(queries[i]);
            }
        }
        LatencyTable latency = new LatencyTable();
        LatencyTable cpu = new LatencyTable();
        double[] found = new double[variants.size()];
        for (int i = 0; i < queries.length; i++) {
            List<RankedArticle>[] answers = runInTurn(variants, queries[i], i, latency, cpu);
            Set<Integer> truth = new HashSet<>();
            answers[0].forEach(r -> truth.add(r.position()));
            for (int v = 0; v < variants.size(); v++) {
                found[v] += answers[v].stream().filter(r -> truth.contains(r.position())).count() / (double) Math.max(1, truth.size());
            }
        }
        List<Search> out = new ArrayList<>();
        for (int v = 0; v < variants.size(); v++) {
            Variant variant = variants.get(v);
            out.add(new Search(variant.form(), variant.candidates(), found[v] / queries.length, latency.p50(variant.name()),
                    latency.p95(variant.name()), cpu.p50(variant.name()), cpu.p95(variant.name()), variant.dir() == null ? 0 : MappedMemory.residentBytes(variant.dir())));
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static List<RankedArticle>[] runInTurn(List<Variant> variants, float[] query, int i, LatencyTable latency, LatencyTable cpu) {
        List<RankedArticle>[] answers = new List[variants.size()];
        for (Variant v : LatencyTable.turn(variants, i)) {
            long c0 = CpuTime.thread();
            long t0 = System.nanoTime();
            List<RankedArticle> answer = v.run(query);
            latency.add(v.name(), System.nanoTime() - t0);
            // The searching thread's own CPU time: what the search costs, whatever else shares the cores.
            cpu.add(v.name(), CpuTime.thread() - c0);
            answers[variants.indexOf(v)] = answer;
        }
        return answers;
    }
}
