package io.ragsearch.search;

import io.ragsearch.embed.ModelFiles;
import io.ragsearch.embed.TextEmbedder;
import io.ragsearch.index.Language;
import java.util.function.Supplier;

/**
 * How an embedding model's cosine similarity reads as evidence in [0, 1] for the relevance gate.
 * Models differ: MiniLM spreads related and unrelated texts over most of [0, 1], so its cosine is
 * the evidence as it is; multilingual-e5 puts nearly every pair between 0.75 and 0.95 (its
 * training temperature), so its cosine is mapped through a logistic curve whose midpoint is the
 * cosine chosen on the dev sets: evidence 0.5 there, the gate's default threshold. The midpoint
 * is chosen per language: e5 puts English question–passage pairs lower than Korean ones (on the dev
 * sets answerable English paraphrases reach 0.82–0.88, Korean ones 0.84–0.91), so one midpoint
 * refused English paraphrases that the ranking placed first.
 *
 * @param midpoint cosine read as evidence 0.5 (NaN: the cosine is the evidence)
 * @param width    cosine distance from the midpoint that moves the evidence from 0.5 to 0.73
 */
public record CosineEvidence(double midpoint, double width) {

    /** The cosine itself (MiniLM and models the server knows nothing about). */
    public static final CosineEvidence RAW = new CosineEvidence(Double.NaN, Double.NaN);
    /**
     * multilingual-e5-small on Korean: the highest midpoint at which every Korean dev set keeps at
     * least 95 % of its answerable questions (lexical coverage may also open the gate): statutes
     * dev .985, agency dev 1.000 (0.850: .929); docs/benchmarks.md has the curves.
     */
    public static final CosineEvidence E5 = new CosineEvidence(0.845, 0.02);
    /**
     * multilingual-e5-small on English, by the same rule on the English dev sets: policies-en dev
     * keeps .967, handbook-en .970 (0.830: .939).
     */
    public static final CosineEvidence E5_ENGLISH = new CosineEvidence(0.825, 0.02);

    public static CosineEvidence forModel(String name, Language language) {
        if (!ModelFiles.BUILTIN_E5.equals(name)) {
            return RAW;
        }
        return language == Language.ENGLISH ? E5_ENGLISH : E5;
    }

    /** A project's reading: its embedder's for its language when it runs with vectors (the model is loaded only then). */
    public static CosineEvidence forProject(RetrievalMode mode, Language language, Supplier<TextEmbedder> embedder) {
        return mode.usesVectors() ? forModel(embedder.get().name(), language) : RAW;
    }

    public boolean calibrated() {
        return !Double.isNaN(midpoint);
    }

    public double of(double cosine) {
        return calibrated() ? 1 / (1 + Math.exp(-(cosine - midpoint) / width)) : Math.max(0, cosine);
    }
}
