package io.ragsearch.bench;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import io.ragsearch.embed.TextTokenizer;
import io.ragsearch.embed.TokenEncoding;
import io.ragsearch.embed.TextTokenizer;
import io.ragsearch.embed.TokenEncoding;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The embedding model run straight on an ONNX Runtime session: the token ids and masks the
 * server's tokenizer produced, in the batches the server forms, mean-pooled and normalised here
 * in plain Java. What the server path costs beyond this is its own overhead (tokenizing, copying).
 */
final class RawEmbeddingRun implements AutoCloseable {

    /** Passages per model run: TextEmbedder runs each passage alone (no padding; docs/models.md, "Serving"). */
    static final int BATCH = 1;

    /** One padded batch: which passages (by input index) and their tokens, rows × width. */
    record TokenBatch(int[] passages, int width, long[] ids, long[] mask, int realTokens) {
        int rows() {
            return passages.length;
        }
    }

    /**
     * The server's batches: passages ordered by text length (a stable sort, as TextEmbedder
     * does), cut into groups of {@link #BATCH}, each group tokenized with the prefix and padded
     * to its longest row.
     */
    static List<TokenBatch> tokenize(TextTokenizer tokenizer, List<String> texts, String prefix) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparingInt(i -> texts.get(i).length()));
        List<TokenBatch> batches = new ArrayList<>();
        for (int from = 0; from < order.size(); from += BATCH) {
            List<Integer> group = order.subList(from, Math.min(order.size(), from + BATCH));
            TokenEncoding[] encodings = tokenizer.encodeAll(group.stream().map(i -> prefix + texts.get(i)).toList());
            int width = 0;
            for (TokenEncoding e : encodings) {
                width = Math.max(width, e.length());
            }
            long[] ids = new long[group.size() * width];
            long[] mask = new long[group.size() * width];
            int real = 0;
            for (int r = 0; r < encodings.length; r++) {
                long[] rowIds = encodings[r].ids();
                long[] rowMask = encodings[r].attentionMask();
                System.arraycopy(rowIds, 0, ids, r * width, rowIds.length);
                System.arraycopy(rowMask, 0, mask, r * width, rowMask.length);
                for (long m : rowMask) {
                    real += (int) m;
                }
            }
            batches.add(new TokenBatch(group.stream().mapToInt(Integer::intValue).toArray(), width, ids, mask, real));
        }
        return batches;
    }

    private final OrtSession session;
    private final String output;
    private final boolean takesTokenTypes;

    /** A session of its own on the model file, with the options the server's registry sets. */
    RawEmbeddingRun(Path model, int intraOpThreads, String output) throws OrtException {
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(intraOpThreads);
            options.setInterOpNumThreads(1);
            options.setCPUArenaAllocator(true);
            this.session = OrtEnvironment.getEnvironment().createSession(model.toString(), options);
        }
        this.output = output;
        this.takesTokenTypes = session.getInputNames().contains("token_type_ids");
    }

    /** Every batch's vectors, placed at their passages' input positions. */
    float[][] embed(List<TokenBatch> batches, int passages) throws OrtException {
        float[][] out = new float[passages][];
        for (TokenBatch b : batches) {
            float[][] vectors = run(b);
            for (int r = 0; r < b.rows(); r++) {
                out[b.passages()[r]] = vectors[r];
            }
        }
        return out;
    }

    /** One forward pass, then mean pooling under the mask and scaling to unit length. */
    float[][] run(TokenBatch b) throws OrtException {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        long[] shape = {b.rows(), b.width()};
        Map<String, OnnxTensor> inputs = new HashMap<>();
        try {
            inputs.put("input_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(b.ids()), shape));
            inputs.put("attention_mask", OnnxTensor.createTensor(env, LongBuffer.wrap(b.mask()), shape));
            if (takesTokenTypes) {
                inputs.put("token_type_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(new long[b.ids().length]), shape));
            }
            try (OrtSession.Result result = session.run(inputs)) {
                OnnxTensor hidden = (OnnxTensor) result.get(output)
                        .orElseThrow(() -> new OrtException("the model returned no output '" + output + "'"));
                long[] dims = hidden.getInfo().getShape();
                return meanPool(hidden.getFloatBuffer(), b, (int) dims[2]);
            }
        } finally {
            inputs.values().forEach(OnnxTensor::close);
        }
    }

    private static float[][] meanPool(FloatBuffer hidden, TokenBatch b, int dim) {
        float[][] out = new float[b.rows()][];
        double[] sum = new double[dim];
        for (int r = 0; r < b.rows(); r++) {
            java.util.Arrays.fill(sum, 0);
            int counted = 0;
            for (int t = 0; t < b.width(); t++) {
                if (b.mask()[r * b.width() + t] == 0) {
                    continue;
                }
                counted++;
                int base = (r * b.width() + t) * dim;
                for (int d = 0; d < dim; d++) {
                    sum[d] += hidden.get(base + d);
                }
            }
            double norm = 0;
            for (int d = 0; d < dim; d++) {
                sum[d] /= Math.max(counted, 1);
                norm += sum[d] * sum[d];
            }
            double length = Math.sqrt(norm);
            float[] v = new float[dim];
            for (int d = 0; d < dim; d++) {
                v[d] = (float) (length > 0 ? sum[d] / length : 0);
            }
            out[r] = v;
        }
        return out;
    }

    @Override
    public void close() throws OrtException {
        session.close();
    }
}
