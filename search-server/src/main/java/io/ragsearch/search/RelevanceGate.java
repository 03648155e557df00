package io.ragsearch.search;

import io.ragsearch.contract.settings.SettingsRules;

/**
 * Decides, once per query, whether the candidates support an answer at all: the best
 * candidate's relevance in [0, 1] (see {@link SearchService}) against the threshold. Below it
 * the answer is "no supporting documents"; at or above it the ranked results are returned,
 * whatever each one's own relevance (a relevant article never vanishes for question filler).
 */
public record RelevanceGate(double threshold) {

    /**
     * Lexical evidence (query-term coverage). Chosen on the Korean dev set: 0.45 keeps 92 % of
     * the answerable questions and refuses 80 % of the unanswerable ones (curve in docs/benchmarks.md).
     */
    public static final double LEXICAL_THRESHOLD = 0.45;
    /** Hybrid evidence with MiniLM (the larger of coverage and cosine): 0.35 keeps 94 %, refuses 70 % on the English set. */
    public static final double HYBRID_THRESHOLD = 0.35;
    /** Cosine alone (MiniLM): 0.40 keeps 88 %, refuses 100 % on the English set. */
    public static final double VECTOR_THRESHOLD = 0.40;
    /** A trained cross-encoder's probability: even odds. */
    public static final double CROSS_ENCODER_THRESHOLD = 0.5;

    public RelevanceGate {
        String problem = SettingsRules.gateThreshold("gate threshold", threshold);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }

    /** Calibrated cosine evidence (multilingual-e5): its midpoint is the point chosen on the dev sets. */
    public static final double CALIBRATED_THRESHOLD = 0.5;

    /** The default for a project: the evidence differs by retrieval mode and model, so does its threshold. */
    public static RelevanceGate defaultFor(RetrievalMode mode, boolean trainedReranker, CosineEvidence evidence) {
        if (trainedReranker) {
            return new RelevanceGate(CROSS_ENCODER_THRESHOLD);
        }
        if (mode.usesVectors() && evidence.calibrated()) {
            return new RelevanceGate(CALIBRATED_THRESHOLD);
        }
        return new RelevanceGate(switch (mode) {
            case LEXICAL, AUTO -> LEXICAL_THRESHOLD;
            case HYBRID -> HYBRID_THRESHOLD;
            case VECTOR -> VECTOR_THRESHOLD;
        });
    }

    /** The configured threshold, or the default for the mode. */
    public static RelevanceGate of(Double configured, RetrievalMode mode, boolean trainedReranker, CosineEvidence evidence) {
        return configured != null ? new RelevanceGate(configured) : defaultFor(mode, trainedReranker, evidence);
    }

    public boolean admits(double score) {
        return score >= threshold;
    }

    public Outcome judge(double bestScore) {
        return new Outcome(admits(bestScore), bestScore, threshold);
    }

    /** The gate's numbers, carried in every search response so the decision can be checked and tuned. */
    public record Outcome(boolean passed, double bestScore, double threshold) {
    }
}
