package io.ragsearch.search;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ragsearch.index.RankedArticle;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScoreFusionTest {

    private static RankedArticle at(int position, double score) {
        return new RankedArticle(position, (float) score);
    }

    private static List<Integer> positions(List<ScoreFusion.Fused> fused) {
        return fused.stream().map(ScoreFusion.Fused::position).toList();
    }

    @Test
    void aVectorCandidateThatStandsFarAboveTheRestOutweighsAFlatLexicalLeg() {
        // Lexical: 1 and 2 nearly tied; vectors: 2 far ahead. Rank fusion would keep 1 first (first in lexical).
        List<RankedArticle> lexical = List.of(at(1, 10.0), at(2, 9.9), at(3, 2.0));
        Map<Integer, Double> cosine = Map.of(1, 0.80, 2, 0.95, 3, 0.79);
        List<RankedArticle> vector = List.of(at(2, 0.95), at(1, 0.80), at(3, 0.79));
        List<ScoreFusion.Fused> fused = ScoreFusion.fuse(lexical, vector, cosine::get, 0.3, 10);
        assertEquals(List.of(2, 1, 3), positions(fused));
        // 2: 0.3 * (9.9 - 2) / 8 + 0.7 * 1
        assertEquals(0.3 * 7.9 / 8 + 0.7, fused.get(0).score(), 1e-6);
    }

    @Test
    void aLexicalCandidateTheVectorLegMissedIsScaledByItsOwnCosine() {
        List<RankedArticle> lexical = List.of(at(5, 4.0), at(6, 1.0));
        List<RankedArticle> vector = List.of(at(7, 0.90), at(6, 0.70));
        Map<Integer, Double> cosine = Map.of(5, 0.80, 6, 0.70, 7, 0.90);
        List<ScoreFusion.Fused> fused = ScoreFusion.fuse(lexical, vector, cosine::get, 0.3, 10);
        // 5: 0.3 * 1 + 0.7 * (0.80 - 0.70) / 0.20 = 0.65; 7: 0.7; 6: 0
        assertEquals(List.of(7, 5, 6), positions(fused));
        assertEquals(0.65, fused.get(1).score(), 1e-6);
        assertEquals(0.0, fused.get(2).score(), 1e-6);
    }

    @Test
    void theLexicalWeightDecidesBetweenLegsThatDisagree() {
        List<RankedArticle> lexical = List.of(at(1, 3.0), at(2, 1.0));
        List<RankedArticle> vector = List.of(at(2, 0.9), at(1, 0.5));
        Map<Integer, Double> cosine = Map.of(1, 0.5, 2, 0.9);
        assertEquals(List.of(1, 2), positions(ScoreFusion.fuse(lexical, vector, cosine::get, 0.8, 10)));
        assertEquals(List.of(2, 1), positions(ScoreFusion.fuse(lexical, vector, cosine::get, 0.2, 10)));
    }

    @Test
    void aLegOfEqualScoresCountsEveryMemberFullyAndTheLimitCuts() {
        List<RankedArticle> lexical = List.of(at(1, 2.0), at(2, 2.0));
        Map<Integer, Double> cosine = Map.of(1, 0.6, 2, 0.9, 3, 0.3);
        List<RankedArticle> vector = List.of(at(2, 0.9), at(1, 0.6), at(3, 0.3));
        List<ScoreFusion.Fused> fused = ScoreFusion.fuse(lexical, vector, cosine::get, 0.3, 2);
        assertEquals(List.of(2, 1), positions(fused));
        assertEquals(1.0, fused.get(0).score(), 1e-6);
    }

    @Test
    void oneLegKeepsItsOwnOrderAndScores() {
        List<ScoreFusion.Fused> single = ScoreFusion.single(List.of(at(4, 7.0), at(2, 5.0), at(8, 1.0)), 2);
        assertEquals(List.of(4, 2), positions(single));
        assertEquals(5.0, single.get(1).score(), 1e-6);
        assertEquals(List.of(), ScoreFusion.fuse(List.of(), List.of(), p -> 0, 0.3, 5));
    }

    @Test
    void eachLegsFirstCandidateIsPlacedNoLowerThanSecond() {
        // Fused order 5, 6, 7, 8, 1, 9: the lexical leg put 1 first, the vector leg 9.
        List<ScoreFusion.Fused> fused = List.of(new ScoreFusion.Fused(5, 0.9), new ScoreFusion.Fused(6, 0.8), new ScoreFusion.Fused(7, 0.7),
                new ScoreFusion.Fused(8, 0.6), new ScoreFusion.Fused(1, 0.5), new ScoreFusion.Fused(9, 0.4));
        List<RankedArticle> lexical = List.of(at(1, 12.0), at(5, 3.0));
        List<RankedArticle> vector = List.of(at(9, 0.91), at(5, 0.90));
        List<ScoreFusion.Fused> kept = ScoreFusion.keepLegLeaders(fused, lexical, vector);
        // The lexical leader moves to second, then the vector leader to second above it; scores stay as fused.
        assertEquals(List.of(5, 9, 1, 6, 7, 8), positions(kept));
        assertEquals(0.5, kept.get(2).score(), 1e-12);
        // A leader already first or second stays where it is, and an empty leg moves nothing.
        assertEquals(List.of(5, 9, 1, 6, 7, 8), positions(ScoreFusion.keepLegLeaders(kept, List.of(at(5, 1.0)), List.of())));
    }
}
