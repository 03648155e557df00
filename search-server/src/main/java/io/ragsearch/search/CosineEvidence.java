package io.ragsearch.search;

import io.ragsearch.embed.ModelFiles;
import io.ragsearch.embed.TextEmbedder;
import java.util.function.Supplier;

/**
 * How an embedding model's cosine similarity reads as evidence in [0, 1] for the relevance gate.
 * Models differ: MiniLM spreads related and unrelated texts over most of [0, 1], so its cosine is
 * the evidence as it is; multilingual-e5 puts nearly every pair between 0.75 and 0.95 (its
 * training temperature), so its cosine is mapped through a logistic curve whose midpoint is the
 * cosine chosen on the dev sets: evidence 0.5 there, the gate's default threshold.
 *
 * @param midpoint cosine read as evidence 0.5 (NaN: the cosine is the evidence)
 * @param width    cosine distance from the midpoint that moves the evidence from 0.5 to 0.73
 */
public record CosineEvidence(double midpoint, double width) {

    /** The cosine itself (MiniLM and models the server knows nothing about). */
    public static final CosineEvidence RAW = new CosineEvidence(Double.NaN, Double.NaN);
    /**
     * multilingual-e5-small: at cosine 0.845 the dev sets (251 questions, 56 unanswerable, Korean
     * and English) keep 96.4 % of the answerable questions and refuse 62.5 % of the others when
     * lexical coverage may also open the gate; docs/benchmarks.md has the curve.
     */
    public static final CosineEvidence E5 = new CosineEvidence(0.845, 0.02);

    public static CosineEvidence forModel(String name) {
        return ModelFiles.BUILTIN_E5.equals(name) ? E5 : RAW;
    }

    /** A project's reading: its embedder's when it runs with vectors (the model is loaded only then). */
    public static CosineEvidence forProject(RetrievalMode mode, Supplier<TextEmbedder> embedder) {
        return mode.usesVectors() ? forModel(embedder.get().name()) : RAW;
    }

    public boolean calibrated() {
        return !Double.isNaN(midpoint);
    }

    public double of(double cosine) {
        return calibrated() ? 1 / (1 + Math.exp(-(cosine - midpoint) / width)) : Math.max(0, cosine);
    }
}
