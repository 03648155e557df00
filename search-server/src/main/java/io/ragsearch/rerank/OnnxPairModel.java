package io.ragsearch.rerank;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import io.ragsearch.embed.ModelRegistry;
import io.ragsearch.embed.PairTokenizer;
import java.util.List;
import java.util.Map;

/** What both pair scorers share: a registry session, a pair tokenizer, and running a batch. */
abstract class OnnxPairModel implements Reranker {

    private final ModelRegistry.LoadedModel model;
    private final PairTokenizer tokenizer;
    private final int maxSeqLen;
    private final int intraOpThreads;

    OnnxPairModel(ModelRegistry.LoadedModel model, PairTokenizer tokenizer, int maxSeqLen, int intraOpThreads) {
        this.model = model;
        this.tokenizer = tokenizer;
        this.maxSeqLen = maxSeqLen;
        this.intraOpThreads = intraOpThreads;
    }

    @Override
    public String name() {
        return model.name();
    }

    @Override
    public String digest() {
        return model.digest();
    }

    @Override
    public int maxSeqLen() {
        return maxSeqLen;
    }

    @Override
    public int intraOpThreads() {
        return intraOpThreads;
    }

    @Override
    public String arenaMode() {
        return model.settings().arena().wireName();
    }

    /** The pair tokenizer the factory chose (ours for a Unigram vocabulary): tests check the choice. */
    PairTokenizer pairTokenizer() {
        return tokenizer;
    }

    @Override
    public PairBatch encode(String query, List<String> passages) {
        return PairBatch.encode(tokenizer, query, passages);
    }

    @Override
    public float[] run(PairBatch batch) {
        if (batch.rows() == 0) {
            return new float[0];
        }
        Map<String, OnnxTensor> inputs = null;
        try {
            inputs = batch.tensors(model.session().getInputNames());
            try (OrtSession.Result result = model.run(inputs)) {
                return scores(result.get(0).getValue(), batch);
            }
        } catch (OrtException e) {
            throw new IllegalStateException("reranker " + name() + " failed: " + e.getMessage(), e);
        } finally {
            if (inputs != null) {
                inputs.values().forEach(OnnxTensor::close);
            }
        }
    }

    /** Turns the model's first output into one score per row. */
    abstract float[] scores(Object output, PairBatch batch);
}
