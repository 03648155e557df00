package io.ragsearch.embed;

import io.ragsearch.contract.settings.SettingsRules;
import java.util.Locale;

/**
 * How an embedding model turns text into one vector; each model family was trained one way
 * and gives poor vectors another way (multilingual-e5: mean pooling and "query: " / "passage: "
 * prefixes; bge-m3: CLS pooling, no prefixes). The defaults are all-MiniLM-L6-v2's.
 *
 * @param output the model output to read, or null to choose: the token-level output
 *               ({@code last_hidden_state}, {@code token_embeddings}, else the first of rank 3)
 *               pooled as configured, or for a model without one its first [batch, dim] output
 * @param dimension the vector length the configuration expects (null: whatever the model gives);
 *                  a model that gives another is refused at load, before any vector is stored
 */
public record EmbeddingSettings(Pooling pooling, boolean normalize, int maxSeqLen, String queryPrefix,
                                String passagePrefix, String output, Integer dimension) {

    /** sentence-transformers trained all-MiniLM-L6-v2 on 256 tokens; longer input adds cost, not quality. */
    public static final int DEFAULT_MAX_SEQ_LEN = 256;

    public static final EmbeddingSettings DEFAULTS = new EmbeddingSettings(Pooling.MEAN, true, DEFAULT_MAX_SEQ_LEN, "", "", null, null);
    /**
     * multilingual-e5-small as it was trained: mean pooling, normalised, "query: " and "passage: "
     * prefixes; 512 positions.
     */
    public static final EmbeddingSettings E5 = new EmbeddingSettings(Pooling.MEAN, true, 512, "query: ", "passage: ", null, null);

    public enum Pooling {
        /** Average of the token vectors under the attention mask (sentence-transformers, e5). */
        MEAN,
        /** The first token's vector ([CLS] / {@code <s>}): bge models. */
        CLS,
        /**
         * The last token's vector under the mask: embedders built on a decoder (causal attention),
         * where only the last token has seen the whole text.
         */
        LAST;

        public static Pooling parse(String value) {
            try {
                return valueOf(value.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown pooling '" + value + "' (use mean, cls or last)");
            }
        }

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public EmbeddingSettings {
        if (pooling == null) {
            throw new IllegalArgumentException("pooling is required");
        }
        String tooLong = SettingsRules.maxSeqLen("maxSeqLen", maxSeqLen);
        if (tooLong != null) {
            throw new IllegalArgumentException(tooLong);
        }
        queryPrefix = queryPrefix == null ? "" : queryPrefix;
        passagePrefix = passagePrefix == null ? "" : passagePrefix;
        if (output != null && output.isBlank()) {
            throw new IllegalArgumentException("output must name a model output (got a blank name)");
        }
        if (dimension != null && dimension < 1) {
            throw new IllegalArgumentException("dimension must be at least 1 (got " + dimension + ")");
        }
    }

    /** Settings from the configuration's optional fields; absent ones take the defaults. */
    public static EmbeddingSettings of(String pooling, Boolean normalize, Integer maxSeqLen, String queryPrefix,
                                       String passagePrefix, String output) {
        return of(DEFAULTS, pooling, normalize, maxSeqLen, queryPrefix, passagePrefix, output, null);
    }

    /** Settings where the configuration gives them, the model's own ({@code base}) elsewhere. */
    public static EmbeddingSettings of(EmbeddingSettings base, String pooling, Boolean normalize, Integer maxSeqLen,
                                       String queryPrefix, String passagePrefix, String output, Integer dimension) {
        return new EmbeddingSettings(pooling == null ? base.pooling() : Pooling.parse(pooling),
                normalize == null ? base.normalize() : normalize,
                maxSeqLen == null ? base.maxSeqLen() : maxSeqLen,
                queryPrefix == null ? base.queryPrefix() : queryPrefix,
                passagePrefix == null ? base.passagePrefix() : passagePrefix, output, dimension);
    }
}
