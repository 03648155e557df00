package io.ragsearch.embed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

class TokenPoolingTest {

    @Test
    void meanCountsOnlyTheMaskedInPositions() {
        // row 1 is padded at its end: its last position carries a vector that must not count
        float[][][] tokens = {
                {{1, 2}, {3, 4}, {5, 6}},
                {{2, 0}, {4, 2}, {100, 100}}};
        long[][] mask = {{1, 1, 1}, {1, 1, 0}};
        float[][] pooled = TokenPooling.pool(EmbeddingSettings.Pooling.MEAN, tokens, mask);
        assertArrayEquals(new float[] {3, 4}, pooled[0]);
        assertArrayEquals(new float[] {3, 1}, pooled[1]);
    }

    @Test
    void clsTakesTheFirstPosition() {
        float[][][] tokens = {{{7, 8}, {1, 1}}};
        assertArrayEquals(new float[] {7, 8},
                TokenPooling.pool(EmbeddingSettings.Pooling.CLS, tokens, new long[][] {{1, 0}})[0]);
    }

    /** A row padded at its end takes its last real token, not the padding's vector. */
    @Test
    void lastTakesTheLastPositionUnderTheMask() {
        float[][][] tokens = {
                {{1, 2}, {3, 4}, {5, 6}},
                {{2, 0}, {4, 2}, {100, 100}}};
        float[][] pooled = TokenPooling.pool(EmbeddingSettings.Pooling.LAST, tokens, new long[][] {{1, 1, 1}, {1, 1, 0}});
        assertArrayEquals(new float[] {5, 6}, pooled[0]);
        assertArrayEquals(new float[] {4, 2}, pooled[1]);
    }
}
