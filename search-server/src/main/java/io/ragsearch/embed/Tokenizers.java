package io.ragsearch.embed;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import io.ragsearch.embed.unigram.UnigramJson;
import io.ragsearch.embed.unigram.UnigramTokenizer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates tokenizers from tokenizer.json bytes; never touches the network. A Unigram model
 * (XLM-R, multilingual e5) gets our own {@link io.ragsearch.embed.unigram.UnigramTokenizer}: the
 * same ids as the Rust library for about a fifth of its resident memory (docs/models.md). Every
 * other model, and a Unigram file using a part our reader does not implement, gets DJL's binding
 * of the Rust library. Both truncate to {@code maxLength} tokens (special tokens included) and do
 * not pad. A cross-encoder's pairs are chosen for the same way ({@link #pairsFromJson}).
 */
public final class Tokenizers {

    private static final Logger LOG = LoggerFactory.getLogger(Tokenizers.class);

    private Tokenizers() {
    }

    public static TextTokenizer fromJson(byte[] tokenizerJson, int maxLength) throws IOException {
        if (UnigramJson.isUnigram(tokenizerJson)) {
            try {
                return UnigramJson.read(tokenizerJson, maxLength);
            } catch (UnigramJson.Unsupported e) {
                LOG.info("Unigram tokenizer.json read by the Rust tokenizers library instead: {}", e.getMessage());
            }
        }
        return djl(tokenizerJson, maxLength);
    }

    /**
     * A cross-encoder's pair tokenizer, cutting pairs on the second text at {@code maxLength}: ours
     * for a Unigram file whose post-processor lays out pairs (an XLM-R reranker's tokenizer costs
     * hundreds of MiB in the Rust library), DJL's for every other.
     */
    public static PairTokenizer pairsFromJson(byte[] tokenizerJson, int maxLength) throws IOException {
        if (UnigramJson.isUnigram(tokenizerJson)) {
            try {
                UnigramTokenizer ours = UnigramJson.read(tokenizerJson, maxLength);
                if (ours.encodesPairs()) {
                    return ours;
                }
                LOG.info("Unigram tokenizer.json without a pair template: pairs read by the Rust tokenizers library");
            } catch (UnigramJson.Unsupported e) {
                LOG.info("Unigram tokenizer.json read by the Rust tokenizers library instead: {}", e.getMessage());
            }
        }
        return djlPairs(tokenizerJson, maxLength);
    }

    /** DJL looks for hub artefacts only when asked to; offline makes that impossible by accident. Call before any DJL tokenizer. */
    public static void offline() {
        System.setProperty("ai.djl.offline", "true");
    }

    /** DJL's Hugging Face tokenizer, whatever the model type: the reference our Unigram reader is tested against. */
    public static TextTokenizer djl(byte[] tokenizerJson, int maxLength) throws IOException {
        return new DjlTokenizer(djl(tokenizerJson, maxLength, "true"));
    }

    /** DJL's Hugging Face tokenizer for pairs, cutting only the second text: the reference our pair encoding is tested against. */
    public static PairTokenizer djlPairs(byte[] tokenizerJson, int maxLength) throws IOException {
        return new DjlPairTokenizer(djl(tokenizerJson, maxLength, "only_second"));
    }

    /** Truncating at maxLength as {@code truncation} says ("true": a single text's end), never padding. */
    private static HuggingFaceTokenizer djl(byte[] tokenizerJson, int maxLength, String truncation) throws IOException {
        offline();
        Map<String, String> options = Map.of(
                "truncation", truncation,
                "padding", "false",
                "maxLength", Integer.toString(maxLength),
                "modelMaxLength", Integer.toString(maxLength));
        return HuggingFaceTokenizer.newInstance(new ByteArrayInputStream(tokenizerJson), options);
    }
}
