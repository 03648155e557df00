package io.ragsearch.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class FusionBaselineTest {

    private static ArticleRef a(String label) {
        return new ArticleRef("doc", label);
    }

    @Test
    void anArticleBothLegsRankBeatsOneThatOnlyOneLegRanksFirst() {
        List<ArticleRef> fused = FusionBaseline.fuse(List.of(List.of(a("제1조"), a("제2조"), a("제3조")),
                List.of(a("제4조"), a("제2조"))), 3);
        // 제2조: 1/62 + 1/62 beats 제1조 and 제4조 at 1/61 each; ties keep the first leg's order.
        assertEquals(List.of(a("제2조"), a("제1조"), a("제4조")), fused);
    }
}
