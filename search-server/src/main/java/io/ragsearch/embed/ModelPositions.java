package io.ragsearch.embed;

import java.util.Locale;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * How many tokens a model's position table admits, from the config.json a Hugging Face export
 * keeps beside model.onnx. A maxSeqLen past it does not fail at load: the model's position
 * lookup fails (or reads garbage) only when a text that long arrives, mid-index or mid-search.
 * So the configuration is checked against it before the weights are read. Without a config.json
 * (the built-ins, a hand-made export) nothing is known and nothing is checked.
 *
 * @param usable tokens the table admits (0: not known)
 * @param source where the figure comes from, for the error message
 */
public record ModelPositions(int usable, String source) {

    public static final ModelPositions UNKNOWN = new ModelPositions(0, "no config.json");
    /**
     * RoBERTa and its descendants number positions from padding_idx + 1 (XLM-R: 514 rows, the
     * first two reserved, 512 usable); BERT-style models from 0.
     */
    private static final Set<String> PADDING_OFFSET = Set.of("roberta", "xlm-roberta", "xlm-roberta-xl", "camembert");
    /** XLM-R's padding id, and so its offset less one, where config.json does not say. */
    private static final int DEFAULT_PAD = 1;

    /** The limit config.json states; UNKNOWN where it states none. Malformed JSON is the caller's error to report. */
    public static ModelPositions fromConfigJson(byte[] json) {
        JsonNode config;
        try {
            config = JsonMapper.builder().build().readTree(json);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("config.json is not JSON: " + e.getOriginalMessage(), e);
        }
        JsonNode max = config.get("max_position_embeddings");
        if (max == null || !max.isIntegralNumber() || max.asInt() < 1) {
            return UNKNOWN;
        }
        String type = config.has("model_type") ? config.get("model_type").asString().toLowerCase(Locale.ROOT) : "";
        if (!PADDING_OFFSET.contains(type)) {
            return new ModelPositions(max.asInt(), "config.json: max_position_embeddings " + max.asInt());
        }
        int pad = config.has("pad_token_id") && config.get("pad_token_id").isIntegralNumber() ? config.get("pad_token_id").asInt() : DEFAULT_PAD;
        return new ModelPositions(Math.max(0, max.asInt() - pad - 1), "config.json: max_position_embeddings " + max.asInt()
                + ", of which " + type + " reserves the first " + (pad + 1));
    }

    /** Null when {@code maxSeqLen} fits (or nothing is known), else the problem, led by {@code field}. */
    public String problem(String field, int maxSeqLen) {
        if (usable > 0 && maxSeqLen > usable) {
            return field + " " + maxSeqLen + " is beyond the model's " + usable + " positions (" + source
                    + "): set maxSeqLen to at most " + usable;
        }
        return null;
    }
}
