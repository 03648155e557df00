package io.ragsearch.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Per-variant latencies (ms) collected while the variants take turns on each query. */
final class LatencyTable {

    private final Map<String, List<Double>> samples = new LinkedHashMap<>();

    void add(String variant, long nanos) {
        samples.computeIfAbsent(variant, v -> new ArrayList<>()).add(nanos / 1e6);
    }

    double p50(String variant) {
        return LoadRunner.percentile(samples.getOrDefault(variant, List.of()), 50);
    }

    double p95(String variant) {
        return LoadRunner.percentile(samples.getOrDefault(variant, List.of()), 95);
    }

    /** The order variants run in for query {@code i}: rotated by one each query, so none always goes first. */
    static <T> List<T> turn(List<T> variants, int i) {
        List<T> out = new ArrayList<>(variants.size());
        for (int j = 0; j < variants.size(); j++) {
            out.add(variants.get((i + j) % variants.size()));
        }
        return out;
    }
}
