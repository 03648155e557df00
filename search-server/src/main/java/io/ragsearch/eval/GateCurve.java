package io.ragsearch.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The gate's trade-off on one question set: for each threshold, the share of answerable
 * questions kept (and found in the top 5), and the share of unanswerable ones refused. Computed
 * from one run with the gate open (threshold 0), since the ranking does not depend on the
 * threshold: the gate decides per query on its best evidence.
 */
public record GateCurve(String set, List<Point> points) {

    public record Point(double threshold, double kept, double refused, double hit5, double mrr) {
    }

    public static GateCurve of(String set, List<QuestionResult> openGate, double step) {
        List<QuestionResult> answerable = openGate.stream().filter(r -> !r.question().refused()).toList();
        List<QuestionResult> unanswerable = openGate.stream().filter(r -> r.question().refused()).toList();
        List<Point> points = new ArrayList<>();
        int steps = (int) Math.round(1 / step);
        for (int i = 0; i <= steps; i++) {
            double t = i * step;
            double kept = share(answerable, r -> r.bestScore() >= t - 1e-9);
            double refused = share(unanswerable, r -> r.bestScore() < t - 1e-9);
            double hit5 = share(answerable, r -> r.bestScore() >= t - 1e-9 && r.hitAt(5));
            double mrr = answerable.isEmpty() ? Double.NaN : answerable.stream()
                    .filter(r -> r.bestScore() >= t - 1e-9).mapToDouble(r -> r.reciprocalRank(EvalRun.DEPTH)).sum() / answerable.size();
            points.add(new Point(Math.round(t * 1000) / 1000.0, kept, refused, hit5, mrr));
        }
        return new GateCurve(set, points);
    }

    private static double share(List<QuestionResult> rs, java.util.function.Predicate<QuestionResult> p) {
        return rs.isEmpty() ? Double.NaN : rs.stream().filter(p).count() / (double) rs.size();
    }

    public String table() {
        StringBuilder out = new StringBuilder("gate trade-off on " + set + " (threshold: answerable kept, found in top 5, MRR@10; unanswerable refused)\n");
        out.append(String.format(Locale.ROOT, "%9s %6s %6s %7s %8s%n", "threshold", "kept", "hit@5", "MRR@10", "refused"));
        for (Point p : points) {
            out.append(String.format(Locale.ROOT, "%9.2f %6.3f %6.3f %7.3f %8.3f%n", p.threshold(), p.kept(), p.hit5(), p.mrr(),
                    p.refused()));
        }
        return out.toString();
    }
}
