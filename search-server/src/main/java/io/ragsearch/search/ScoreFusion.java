package io.ragsearch.search;

import io.ragsearch.index.RankedArticle;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.LinkedHashSet;
import java.util.function.IntToDoubleFunction;

/**
 * Hybrid fusion: each leg's scores scaled to [0, 1] over that leg's own candidates (its best 1,
 * its last 0), then a weighted sum. Unlike reciprocal-rank fusion it keeps how far apart the
 * candidates are: a vector leg whose top cosine stands well above the rest outweighs a lexical
 * leg whose scores are all alike, and the other way round.
 *
 * <p>The lexical leg counts {@value #LEXICAL_WEIGHT}, the vectors the rest. Chosen on the dev sets
 * (statutes dev and first holdout, agency-ko-dev, handbook-en, policies-en-dev) with
 * multilingual-e5-small: MRR@10 .772 / .952 / .970 / .933 there, against .760 / .901 / .881 / .920
 * for reciprocal-rank fusion (k 60) of the same legs; docs/benchmarks.md has the sweep.
 */
public final class ScoreFusion {

    public static final double LEXICAL_WEIGHT = 0.3;

    private ScoreFusion() {
    }

    /**
     * Fused positions, best first.
     *
     * @param cosine the exact cosine of any article, so a lexical candidate the vector leg did not
     *               return is scaled by its own similarity, not taken for the leg's worst
     */
    public static List<Fused> fuse(List<RankedArticle> lexical, List<RankedArticle> vector, IntToDoubleFunction cosine,
                                   double lexicalWeight, int limit) {
        Map<Integer, Double> scores = new LinkedHashMap<>();
        Range lex = Range.of(lexical.stream().mapToDouble(RankedArticle::score).toArray());
        for (RankedArticle r : lexical) {
            scores.merge(r.position(), lexicalWeight * lex.scaled(r.score()), Double::sum);
        }
        Range vec = Range.of(vector.stream().mapToDouble(RankedArticle::score).toArray());
        Set<Integer> all = new LinkedHashSet<>(scores.keySet());
        vector.forEach(r -> all.add(r.position()));
        for (int position : all) {
            double v = vector.isEmpty() ? 0 : vec.scaled(cosine.applyAsDouble(position));
            scores.merge(position, (1 - lexicalWeight) * v, Double::sum);
        }
        List<Fused> out = new ArrayList<>(scores.size());
        scores.forEach((position, score) -> out.add(new Fused(position, score)));
        out.sort(Comparator.comparingDouble(Fused::score).reversed());
        return out.subList(0, Math.min(limit, out.size()));
    }

    /** One leg alone, in its own order (lexical or vector retrieval). */
    public static List<Fused> single(List<RankedArticle> leg, int limit) {
        List<Fused> out = new ArrayList<>();
        for (RankedArticle r : leg.subList(0, Math.min(limit, leg.size()))) {
            out.add(new Fused(r.position(), r.score()));
        }
        return out;
    }

    public record Fused(int position, double score) {
    }

    /** A leg's lowest and highest score; a value is scaled into [0, 1] between them (clipped). */
    private record Range(double low, double high) {
        static Range of(double[] scores) {
            double low = Double.POSITIVE_INFINITY;
            double high = Double.NEGATIVE_INFINITY;
            for (double s : scores) {
                low = Math.min(low, s);
                high = Math.max(high, s);
            }
            return new Range(low, high);
        }

        double scaled(double value) {
            if (!(high > low)) {
                return value >= high ? 1 : 0; // a leg of one, or of equal scores: all its members count fully
            }
            return Math.max(0, Math.min(1, (value - low) / (high - low)));
        }
    }
}
