package io.ragsearch.rerank;

import java.util.Locale;

/**
 * How a cross-encoder's logits for one pair become a relevance in [0, 1]: what the gate and the
 * order read, so it must be the mapping the model was trained with. A pure function of one row.
 * <ul>
 *   <li>{@code AUTO} (default): one logit through the sigmoid (bge-reranker, ms-marco cross-encoders),
 *       two through a softmax read at class 1 (the usual binary classifier export);</li>
 *   <li>{@code SIGMOID}: the sigmoid of the logit at the positive class (multi-label heads);</li>
 *   <li>{@code SOFTMAX}: the softmax over all classes, read at the positive class;</li>
 *   <li>{@code NONE}: the output at the positive class is a relevance already (an export that
 *       ends in its own sigmoid), clamped to [0, 1].</li>
 * </ul>
 *
 * @param positiveClass the index the relevance is read at; null with AUTO (it picks)
 */
public record ScoreMapping(Kind kind, Integer positiveClass) {

    public static final ScoreMapping AUTO = new ScoreMapping(Kind.AUTO, null);
    /** The class a two-class export calls relevant ("LABEL_1"). */
    static final int DEFAULT_POSITIVE_CLASS = 1;

    public enum Kind {
        AUTO, SIGMOID, SOFTMAX, NONE;

        static Kind parse(String value) {
            try {
                return valueOf(value.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown scoreMapping '" + value + "' (use auto, sigmoid, softmax or none)");
            }
        }

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public ScoreMapping {
        if (kind == null) {
            throw new IllegalArgumentException("a score mapping needs its kind");
        }
        if (kind == Kind.AUTO && positiveClass != null) {
            throw new IllegalArgumentException("positiveClass needs scoreMapping sigmoid, softmax or none: auto reads class 1 of two itself");
        }
        if (positiveClass != null && positiveClass < 0) {
            throw new IllegalArgumentException("positiveClass must be at least 0, got " + positiveClass);
        }
    }

    /** From the configuration's optional fields (null: auto; a kind without a class reads class 0 of one output, 1 of more). */
    public static ScoreMapping of(String kind, Integer positiveClass) {
        return new ScoreMapping(kind == null ? Kind.AUTO : Kind.parse(kind), positiveClass);
    }

    /**
     * Null when a model with {@code classes} outputs per pair (0: not known before a run) can be
     * read this way, else why not: checked when the reranker loads, so a mismatch never reaches a search.
     */
    public String problem(int classes) {
        if (classes <= 0) {
            return null;
        }
        if (kind == Kind.AUTO && classes > 2) {
            return "it outputs " + classes + " classes; set scoreMapping (sigmoid, softmax or none) and positiveClass";
        }
        if (kind == Kind.SOFTMAX && classes == 1) {
            return "scoreMapping softmax over one logit is always 1; use sigmoid (or none if the model applies its own)";
        }
        int index = positive(classes);
        if (index >= classes) {
            return "positiveClass " + index + " is beyond its " + classes + " output(s) (0.." + (classes - 1) + ")";
        }
        return null;
    }

    /** The relevance of one pair from its logits. */
    public float map(float[] logits) {
        String problem = problem(logits.length);
        if (problem != null) {
            throw new IllegalStateException("cross-encoder output does not fit its score mapping: " + problem);
        }
        int p = positive(logits.length);
        return switch (kind) {
            case AUTO -> logits.length == 1 ? sigmoid(logits[0]) : sigmoid(logits[1] - logits[0]); // softmax of two, class 1
            case SIGMOID -> sigmoid(logits[p]);
            case SOFTMAX -> softmax(logits, p);
            case NONE -> Math.max(0f, Math.min(1f, logits[p]));
        };
    }

    /** For /info: "auto", "softmax", "softmax[0]" (the class only where the configuration named it). */
    public String describe() {
        return positiveClass == null ? kind.wireName() : kind.wireName() + "[" + positiveClass + "]";
    }

    private int positive(int classes) {
        if (positiveClass != null) {
            return positiveClass;
        }
        return classes == 1 ? 0 : DEFAULT_POSITIVE_CLASS;
    }

    static float sigmoid(float x) {
        return (float) (1 / (1 + Math.exp(-x)));
    }

    /** Shifted by the largest logit: exp of a logit of 100 would overflow a float. */
    private static float softmax(float[] logits, int p) {
        float max = Float.NEGATIVE_INFINITY;
        for (float l : logits) {
            max = Math.max(max, l);
        }
        double sum = 0;
        for (float l : logits) {
            sum += Math.exp(l - max);
        }
        return (float) (Math.exp(logits[p] - max) / sum);
    }
}
