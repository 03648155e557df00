package io.ragsearch.rerank;

import io.ragsearch.embed.ModelRegistry;
import io.ragsearch.embed.PairTokenizer;

/**
 * A trained cross-encoder in the usual Hugging Face sequence-classification export: output
 * {@code logits} of shape [B,1] (relevance = sigmoid) or [B,2] (relevance = softmax of the
 * positive class, index 1).
 */
class CrossEncoder extends OnnxPairModel {

    CrossEncoder(ModelRegistry.LoadedModel model, PairTokenizer tokenizer, int maxSeqLen, int intraOpThreads) {
        super(model, tokenizer, maxSeqLen, intraOpThreads);
    }

    @Override
    public boolean trained() {
        return true;
    }

    @Override
    float[] scores(Object output, PairBatch batch) {
        if (!(output instanceof float[][] logits) || logits.length != batch.rows()) {
            throw new IllegalStateException("cross-encoder " + name() + " must output float logits [B,1] or [B,2]");
        }
        float[] out = new float[logits.length];
        for (int r = 0; r < logits.length; r++) {
            out[r] = switch (logits[r].length) {
                case 1 -> sigmoid(logits[r][0]);
                case 2 -> sigmoid(logits[r][1] - logits[r][0]); // softmax of two classes, positive one
                default -> throw new IllegalStateException("cross-encoder " + name() + " outputs " + logits[r].length
                        + " classes; expected 1 or 2");
            };
        }
        return out;
    }

    static float sigmoid(float x) {
        return (float) (1 / (1 + Math.exp(-x)));
    }
}
