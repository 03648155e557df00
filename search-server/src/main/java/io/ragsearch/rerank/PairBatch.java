package io.ragsearch.rerank;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import io.ragsearch.embed.PairTokenizer;
import io.ragsearch.embed.TokenEncoding;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * (query, passage) pairs as encoder input, laid out as the model's tokenizer.json says (BERT:
 * [CLS] query [SEP] passage [SEP], token type 0 for the query and 1 for the passage; XLM-R:
 * {@code <s> query </s></s> passage </s>}, no token types), padded to the longest pair of the batch.
 */
public record PairBatch(long[][] ids, long[][] mask, long[][] types) {

    public int rows() {
        return ids.length;
    }

    public int width() {
        return ids.length == 0 ? 0 : ids[0].length;
    }

    /** Tokenizes the pairs; the tokenizer truncates the passage only, so the query stays whole. */
    public static PairBatch encode(PairTokenizer tokenizer, String query, List<String> passages) {
        TokenEncoding[] encodings = new TokenEncoding[passages.size()];
        int width = 0;
        for (int i = 0; i < passages.size(); i++) {
            encodings[i] = tokenizer.encodePair(query, passages.get(i));
            width = Math.max(width, encodings[i].length());
        }
        long[][] ids = new long[encodings.length][width];
        long[][] mask = new long[encodings.length][width];
        long[][] types = new long[encodings.length][width];
        for (int r = 0; r < encodings.length; r++) {
            int n = encodings[r].length();
            System.arraycopy(encodings[r].ids(), 0, ids[r], 0, n);
            System.arraycopy(encodings[r].attentionMask(), 0, mask[r], 0, n);
            System.arraycopy(encodings[r].typeIds(), 0, types[r], 0, n);
        }
        return new PairBatch(ids, mask, types);
    }

    /**
     * The most expensive input the reranker can receive: every pair at the maximum length.
     * Calibration runs this, so the measured cost bounds every real run. Token ids cycle through
     * ordinary word pieces; the cost of a transformer does not depend on which tokens they are.
     */
    public static PairBatch worstCase(int rows, int width) {
        long[][] ids = new long[rows][width];
        long[][] mask = new long[rows][width];
        long[][] types = new long[rows][width];
        int queryEnd = Math.max(2, width / 8);
        for (int r = 0; r < rows; r++) {
            for (int t = 0; t < width; t++) {
                ids[r][t] = 2000 + (r * 31 + t * 7) % 20000;
                mask[r][t] = 1;
                types[r][t] = t < queryEnd ? 0 : 1;
            }
        }
        return new PairBatch(ids, mask, types);
    }

    /** The tensors a BERT-style model takes, only those its inputs name. Callers close them. */
    Map<String, OnnxTensor> tensors(Set<String> inputNames) throws OrtException {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        Map<String, OnnxTensor> inputs = new HashMap<>();
        try {
            inputs.put("input_ids", OnnxTensor.createTensor(env, ids));
            if (inputNames.contains("attention_mask")) {
                inputs.put("attention_mask", OnnxTensor.createTensor(env, mask));
            }
            if (inputNames.contains("token_type_ids")) {
                inputs.put("token_type_ids", OnnxTensor.createTensor(env, types));
            }
            return inputs;
        } catch (OrtException | RuntimeException e) {
            inputs.values().forEach(OnnxTensor::close);
            throw e;
        }
    }
}
