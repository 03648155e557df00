package io.ragsearch.eval;

import java.util.List;
import java.util.Locale;

/**
 * The trade-off of the cosine evidence's midpoint on one question set: for each midpoint, the
 * figures with the gate at its own threshold. Unlike {@link GateCurve} it moves only the vector
 * side of the gate's evidence; lexical coverage opens the gate as it does by default. At the
 * calibrated gate's threshold (0.5) the width of the logistic does not change any decision, so
 * the midpoint is the one number that sets the gate on the model's side.
 */
public record MidpointCurve(String set, List<Point> points) {

    public record Point(double midpoint, double kept, double hit5, double mrr, double refused) {
        public static Point of(double midpoint, EvalSummary s) {
            return new Point(midpoint, s.answerable().kept(), s.answerable().hit5(), s.answerable().mrr(), s.unanswerable().refused());
        }
    }

    public String table() {
        StringBuilder out = new StringBuilder("cosine midpoint trade-off on " + set
                + " (midpoint: answerable kept, found in top 5, MRR@10; unanswerable refused)\n");
        out.append(String.format(Locale.ROOT, "%9s %6s %6s %7s %8s%n", "midpoint", "kept", "hit@5", "MRR@10", "refused"));
        for (Point p : points) {
            out.append(String.format(Locale.ROOT, "%9.3f %6.3f %6.3f %7.3f %8.3f%n", p.midpoint(), p.kept(), p.hit5(), p.mrr(),
                    p.refused()));
        }
        return out.toString();
    }
}
