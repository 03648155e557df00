package io.ragsearch.rerank;

import io.ragsearch.embed.ModelRegistry;
import io.ragsearch.embed.PairTokenizer;

/**
 * The cost stand-in ({@code builtin: minilm-pair}): runs the bundled MiniLM-L6 encoder over each
 * (query, passage) pair exactly as a MiniLM-L6 cross-encoder would (one forward pass per pair at
 * pair length), so calibration, the concurrency bound, benchmarks and the end-to-end loop do real
 * rerank work. It is not a trained cross-encoder: its score (cosine of the two segments' mean
 * token vectors) measured worse than no reranking, so search never reorders or gates by it.
 */
final class MiniLmPairStandIn extends OnnxPairModel {

    MiniLmPairStandIn(ModelRegistry.LoadedModel model, PairTokenizer tokenizer, int maxSeqLen, int intraOpThreads) {
        super(model, tokenizer, maxSeqLen, intraOpThreads);
    }

    @Override
    public String name() {
        return RerankerFactory.STAND_IN;
    }

    @Override
    public boolean trained() {
        return false;
    }

    @Override
    public String costOf() {
        return "a MiniLM-L6";
    }

    @Override
    float[] scores(Object output, PairBatch batch) {
        float[][][] tokens = (float[][][]) output;
        float[] out = new float[tokens.length];
        for (int r = 0; r < tokens.length; r++) {
            int dim = tokens[r][0].length;
            double[] query = new double[dim];
            double[] passage = new double[dim];
            for (int t = 0; t < tokens[r].length; t++) {
                if (batch.mask()[r][t] == 0) {
                    continue;
                }
                double[] segment = batch.types()[r][t] == 0 ? query : passage;
                for (int d = 0; d < dim; d++) {
                    segment[d] += tokens[r][t][d];
                }
            }
            out[r] = (float) Math.max(0, cosine(query, passage));
        }
        return out;
    }

    private static double cosine(double[] a, double[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
    }
}
