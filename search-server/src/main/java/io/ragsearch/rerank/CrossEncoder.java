package io.ragsearch.rerank;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.TensorInfo;
import io.ragsearch.embed.ModelRegistry;
import io.ragsearch.embed.PairTokenizer;
import java.util.Iterator;

/**
 * A trained cross-encoder in the usual Hugging Face sequence-classification export: its first
 * output, {@code logits} [B, classes], becomes one relevance per pair as its {@link ScoreMapping}
 * says (by default: sigmoid of one logit, softmax of class 1 of two).
 */
class CrossEncoder extends OnnxPairModel {

    private final ScoreMapping mapping;

    CrossEncoder(ModelRegistry.LoadedModel model, PairTokenizer tokenizer, int maxSeqLen, int intraOpThreads, ScoreMapping mapping) {
        super(model, tokenizer, maxSeqLen, intraOpThreads);
        this.mapping = mapping;
        String problem = mapping.problem(classes(model));
        if (problem != null) {
            throw new IllegalArgumentException("cross-encoder " + model.name() + ": " + problem);
        }
    }

    @Override
    public boolean trained() {
        return true;
    }

    @Override
    public String scoreMapping() {
        return mapping.describe();
    }

    @Override
    float[] scores(Object output, PairBatch batch) {
        if (!(output instanceof float[][] logits) || logits.length != batch.rows()) {
            throw new IllegalStateException("cross-encoder " + name() + " must output float logits [B, classes]");
        }
        float[] out = new float[logits.length];
        for (int r = 0; r < logits.length; r++) {
            out[r] = mapping.map(logits[r]);
        }
        return out;
    }

    /** The classes of the first output as the model declares them ([B, N]); 0 when it does not say (a dynamic N). */
    private static int classes(ModelRegistry.LoadedModel model) {
        try {
            Iterator<NodeInfo> outputs = model.session().getOutputInfo().values().iterator();
            if (outputs.hasNext() && outputs.next().getInfo() instanceof TensorInfo t && t.getShape().length == 2) {
                return (int) Math.max(0, t.getShape()[1]);
            }
            return 0;
        } catch (ai.onnxruntime.OrtException e) {
            return 0; // the first run says it instead
        }
    }
}
