package io.ragsearch.eval;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The figures of one run: per kind and over all answerable questions hit@1/5/10 and MRR@10
 * (a refused answerable question counts as a miss: that is what the caller saw), the gate's
 * recall ({@code kept}: answerable questions not refused) and its refusals ({@code refused}:
 * unanswerable questions refused), and latency p50/p95.
 */
public record EvalSummary(String set, String backend, Map<String, Row> byKind, Row answerable, Row unanswerable,
                          double p50Millis, double p95Millis) {

    public static final String ALL = "all";

    /** One row; {@code NaN} where the metric does not apply (ranking of unanswerable questions, refusals of answerable). */
    public record Row(int questions, double hit1, double hit5, double hit10, double mrr, double kept, double refused) {
    }

    public static EvalSummary of(String set, String backend, List<QuestionResult> results) {
        Map<String, Row> byKind = new LinkedHashMap<>();
        for (QuestionResult r : results) {
            byKind.computeIfAbsent(r.question().kind(), k -> row(results, x -> x.question().kind().equals(k)));
        }
        double[] millis = results.stream().mapToDouble(QuestionResult::millis).sorted().toArray();
        return new EvalSummary(set, backend, byKind, row(results, r -> !r.question().refused()),
                row(results, r -> r.question().refused()), percentile(millis, 0.50), percentile(millis, 0.95));
    }

    private static Row row(List<QuestionResult> all, Predicate<QuestionResult> which) {
        List<QuestionResult> rs = new ArrayList<>();
        for (QuestionResult r : all) {
            if (which.test(r)) {
                rs.add(r);
            }
        }
        List<QuestionResult> answerable = rs.stream().filter(r -> !r.question().refused()).toList();
        List<QuestionResult> unanswerable = rs.stream().filter(r -> r.question().refused()).toList();
        double n = answerable.size();
        return new Row(rs.size(),
                n == 0 ? Double.NaN : answerable.stream().filter(r -> r.hitAt(1)).count() / n,
                n == 0 ? Double.NaN : answerable.stream().filter(r -> r.hitAt(5)).count() / n,
                n == 0 ? Double.NaN : answerable.stream().filter(r -> r.hitAt(10)).count() / n,
                n == 0 ? Double.NaN : answerable.stream().mapToDouble(r -> r.reciprocalRank(EvalRun.DEPTH)).sum() / n,
                n == 0 ? Double.NaN : answerable.stream().filter(r -> !r.refused()).count() / n,
                unanswerable.isEmpty() ? Double.NaN
                        : unanswerable.stream().filter(QuestionResult::refused).count() / (double) unanswerable.size());
    }

    /** Nearest-rank percentile of sorted values. */
    static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /**
     * A metric by name: {@code hit1, hit5, hit10, mrr, kept} over the answerable questions,
     * {@code refused} over the unanswerable ones, or {@code KIND.METRIC} for one kind.
     */
    public double metric(String name) {
        int dot = name.indexOf('.');
        Row row = dot < 0 ? (name.equals("refused") ? unanswerable : answerable) : byKind.get(name.substring(0, dot));
        String metric = dot < 0 ? name : name.substring(dot + 1);
        if (row == null) {
            throw new EvalException("no questions of kind '" + name.substring(0, dot) + "' in set " + set + "; kinds: "
                    + String.join(", ", byKind.keySet()));
        }
        return switch (metric) {
            case "hit1" -> row.hit1();
            case "hit5" -> row.hit5();
            case "hit10" -> row.hit10();
            case "mrr" -> row.mrr();
            case "kept" -> row.kept();
            case "refused" -> row.refused();
            default -> throw new EvalException("unknown metric '" + metric + "'; metrics: "
                    + Arrays.toString(new String[] {"hit1", "hit5", "hit10", "mrr", "kept", "refused"}));
        };
    }
}
