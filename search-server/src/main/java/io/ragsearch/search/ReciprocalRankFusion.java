package io.ragsearch.search;

import io.ragsearch.index.RankedArticle;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reciprocal-rank fusion: score(a) = Σ over legs of 1 / (k + rank), rank from 1. It needs no
 * score normalisation between BM25 and cosine, which have unrelated scales.
 */
public final class ReciprocalRankFusion {

    public static final int DEFAULT_K = 60;

    private ReciprocalRankFusion() {
    }

    /** Fused positions, best first; ties keep the order of first appearance (earlier legs first). */
    public static List<Fused> fuse(List<List<RankedArticle>> legs, int k, int limit) {
        Map<Integer, Double> scores = new LinkedHashMap<>();
        for (List<RankedArticle> leg : legs) {
            for (int rank = 0; rank < leg.size(); rank++) {
                scores.merge(leg.get(rank).position(), 1.0 / (k + rank + 1), Double::sum);
            }
        }
        List<Fused> out = new ArrayList<>(scores.size());
        scores.forEach((position, score) -> out.add(new Fused(position, score)));
        out.sort(Comparator.comparingDouble(Fused::score).reversed());
        return out.subList(0, Math.min(limit, out.size()));
    }

    public record Fused(int position, double score) {
    }
}
