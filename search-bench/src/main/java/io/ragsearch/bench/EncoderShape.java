package io.ragsearch.bench;

/**
 * The work of one forward pass of a BERT-style encoder, counted from its shape: the matrix
 * products only (Q, K, V, attention output, the two feed-forward layers, and attention's two
 * products over the padded width); element-wise work is left out, as a peak counts only
 * multiply-adds. The word-embedding lookup costs no arithmetic worth counting.
 */
record EncoderShape(int layers, int hidden, int ffn) {

    /** multilingual-e5-small: 12 layers of width 384, feed-forward 1536. */
    static final EncoderShape E5_SMALL = new EncoderShape(12, 384, 1536);

    /** Linear-layer operations per token: 2 × (4 h² + 2 h f) per layer (a multiply-add is two). */
    double linearPerToken() {
        return layers * 2.0 * (4.0 * hidden * hidden + 2.0 * hidden * ffn);
    }

    /** Operations of a batch of rows padded to width tokens (padding positions are computed too). */
    double flops(int rows, int width) {
        double attention = layers * 2.0 * 2.0 * width * (double) width * hidden;
        return rows * (width * linearPerToken() + attention);
    }
}
