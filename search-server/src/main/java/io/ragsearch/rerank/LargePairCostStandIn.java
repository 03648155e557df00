package io.ragsearch.rerank;

import io.ragsearch.embed.ModelRegistry;
import io.ragsearch.embed.PairTokenizer;

/**
 * The large cost stand-in ({@code builtin: xlmr-large-pair-cost}): a cross-encoder graph of
 * XLM-R-large shape (24 layers, hidden 1024, 16 heads, FFN 4096, 250,002-piece vocabulary, 514
 * positions, one logit) in ONNX Runtime's dynamic int8 form, with random weights that
 * scripts/model/fetch-xlmr-pair-cost.sh generates from a fixed seed. It costs what the large
 * multilingual rerankers of the field cost (562 MB of weights; a run of 32 pairs × 512 tokens
 * measured 2.2 GiB above rest, docs/reranking.md), so calibration, the concurrency bound and the operator's budget can
 * be exercised at that scale. Its logit goes through the sigmoid as a trained one-logit model's
 * would ({@link CrossEncoder}), but means nothing: search never reorders or gates by it.
 */
final class LargePairCostStandIn extends CrossEncoder {

    static final String NAME = "xlmr-large-pair-cost";
    /** sha256 of the model.onnx the script generates and checks (numpy and onnx pinned in scripts/model/requirements-convert.txt). */
    static final String SHA256 = "sha256:09e31d354d725985f8ae0b2a1019b30881b799240de86284c4b59182952f6566";
    /** XLM-R's position limit (514 rows, 2 reserved by its padding offset): the length such rerankers run at. */
    static final int MAX_SEQ = 512;
    static final String FETCH_SCRIPT = "scripts/model/fetch-xlmr-pair-cost.sh";

    LargePairCostStandIn(ModelRegistry.LoadedModel model, PairTokenizer tokenizer, int maxSeqLen, int intraOpThreads) {
        super(model, tokenizer, maxSeqLen, intraOpThreads, ScoreMapping.AUTO);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean trained() {
        return false;
    }

    @Override
    public String costOf() {
        return "an XLM-R-large (int8)";
    }
}
