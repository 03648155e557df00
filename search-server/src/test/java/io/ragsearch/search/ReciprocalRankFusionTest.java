package io.ragsearch.search;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ragsearch.index.RankedArticle;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReciprocalRankFusionTest {

    private static List<RankedArticle> leg(int... positions) {
        return java.util.Arrays.stream(positions).mapToObj(p -> new RankedArticle(p, 1f)).toList();
    }

    @Test
    void anArticleBothLegsFindBeatsOneThatOnlyOneLegRanksFirst() {
        List<ReciprocalRankFusion.Fused> fused = ReciprocalRankFusion.fuse(List.of(leg(7, 3, 5), leg(3, 9)), 60, 10);
        assertEquals(3, fused.get(0).position());
        assertEquals(1.0 / 62 + 1.0 / 61, fused.get(0).score(), 1e-12);
        assertEquals(List.of(3, 7, 9, 5), fused.stream().map(ReciprocalRankFusion.Fused::position).toList());
    }

    @Test
    void limitAndSingleLeg() {
        List<ReciprocalRankFusion.Fused> fused = ReciprocalRankFusion.fuse(List.of(leg(4, 2, 8)), 60, 2);
        assertEquals(List.of(4, 2), fused.stream().map(ReciprocalRankFusion.Fused::position).toList());
        assertEquals(0, ReciprocalRankFusion.fuse(List.of(), 60, 5).size());
    }
}
