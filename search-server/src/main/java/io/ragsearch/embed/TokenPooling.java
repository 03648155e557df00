package io.ragsearch.embed;

/** Turns an encoder's token vectors [batch, tokens, dim] into one vector per row. */
final class TokenPooling {

    private TokenPooling() {
    }

    static float[][] pool(EmbeddingSettings.Pooling pooling, float[][][] tokens, long[][] mask) {
        float[][] out = new float[tokens.length][];
        for (int r = 0; r < tokens.length; r++) {
            out[r] = switch (pooling) {
                case MEAN -> mean(tokens[r], mask[r]);
                // Rows are padded at the end, so position 0 is always the row's own first token.
                case CLS -> tokens[r][0].clone();
                case LAST -> tokens[r][lastUnderMask(mask[r])].clone();
            };
        }
        return out;
    }

    /** The last position the mask keeps (rows are padded at the end); 0 for a row the mask keeps nothing of. */
    private static int lastUnderMask(long[] mask) {
        for (int t = mask.length - 1; t > 0; t--) {
            if (mask[t] != 0) {
                return t;
            }
        }
        return 0;
    }

    /** Mean under the attention mask: padding positions carry vectors too, and must not count. */
    private static float[] mean(float[][] row, long[] mask) {
        float[] sum = new float[row[0].length];
        int count = 0;
        for (int t = 0; t < row.length; t++) {
            if (mask[t] == 0) {
                continue;
            }
            count++;
            for (int d = 0; d < sum.length; d++) {
                sum[d] += row[t][d];
            }
        }
        for (int d = 0; d < sum.length; d++) {
            sum[d] /= Math.max(count, 1);
        }
        return sum;
    }
}
