package io.ragsearch.embed;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Sentence embeddings from a BERT-style ONNX encoder (all-MiniLM-L6-v2 built in): mean of the
 * token vectors under the attention mask, L2-normalised, so a dot product is the cosine.
 * One session serves all threads (ONNX Runtime sessions are safe to run concurrently).
 */
public final class TextEmbedder implements AutoCloseable {

    /** sentence-transformers trained all-MiniLM-L6-v2 on 256 tokens; longer input adds cost, not quality. */
    public static final int MAX_TOKENS = 256;
    private static final int BATCH = 16;

    private final String name;
    private final String digest;
    private final ModelRegistry.LoadedModel model;
    private final HuggingFaceTokenizer tokenizer;
    private final boolean takesTokenTypes;
    private final int dimension;
    private final java.util.concurrent.atomic.AtomicLong textsEmbedded = new java.util.concurrent.atomic.AtomicLong();

    private TextEmbedder(String name, String digest, ModelRegistry.LoadedModel model, HuggingFaceTokenizer tokenizer)
            throws OrtException {
        this.name = name;
        this.digest = digest;
        this.model = model;
        OrtSession session = model.session();
        this.tokenizer = tokenizer;
        Set<String> inputs = session.getInputNames();
        if (!inputs.contains("input_ids") || !inputs.contains("attention_mask")) {
            throw new OrtException("embedding model needs inputs input_ids and attention_mask, has " + inputs);
        }
        this.takesTokenTypes = inputs.contains("token_type_ids");
        this.dimension = embedBatch(List.of("dimension probe"))[0].length;
    }

    /** The tokenizer alone, for judging a corpus without loading the model. */
    public static HuggingFaceTokenizer loadTokenizer(ModelFiles files) throws IOException {
        return Tokenizers.fromJson(files.readTokenizer(), MAX_TOKENS);
    }

    public static TextEmbedder load(ModelRegistry registry, ModelFiles files, SessionSettings settings) throws IOException {
        ModelRegistry.LoadedModel model = registry.load(files, settings);
        try {
            return new TextEmbedder(model.name(), model.digest(), model, loadTokenizer(files));
        } catch (OrtException e) {
            throw new IOException("embedding model " + files.name() + " does not fit: " + e.getMessage(), e);
        }
    }

    public String name() {
        return name;
    }

    public String digest() {
        return digest;
    }

    public int dimension() {
        return dimension;
    }

    public HuggingFaceTokenizer tokenizer() {
        return tokenizer;
    }

    public float[] embed(String text) {
        return embedAll(List.of(text))[0];
    }

    /** Texts embedded since load (the dimension probe included): shows what work startup did. */
    public long textsEmbedded() {
        return textsEmbedded.get();
    }

    public float[][] embedAll(List<String> texts) {
        float[][] out = new float[texts.size()][];
        for (int from = 0; from < texts.size(); from += BATCH) {
            int to = Math.min(texts.size(), from + BATCH);
            try {
                float[][] batch = embedBatch(texts.subList(from, to));
                System.arraycopy(batch, 0, out, from, batch.length);
            } catch (OrtException e) {
                throw new IllegalStateException("embedding failed: " + e.getMessage(), e);
            }
        }
        return out;
    }

    private float[][] embedBatch(List<String> texts) throws OrtException {
        textsEmbedded.addAndGet(texts.size());
        Encoding[] encodings = tokenizer.batchEncode(texts);
        int rows = encodings.length;
        int width = 0;
        for (Encoding e : encodings) {
            width = Math.max(width, e.getIds().length);
        }
        long[][] ids = new long[rows][width];
        long[][] mask = new long[rows][width];
        long[][] types = new long[rows][width];
        for (int r = 0; r < rows; r++) {
            long[] rowIds = encodings[r].getIds();
            System.arraycopy(rowIds, 0, ids[r], 0, rowIds.length);
            System.arraycopy(encodings[r].getAttentionMask(), 0, mask[r], 0, rowIds.length);
            System.arraycopy(encodings[r].getTypeIds(), 0, types[r], 0, rowIds.length);
        }
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        Map<String, OnnxTensor> inputs = new HashMap<>();
        try {
            inputs.put("input_ids", OnnxTensor.createTensor(env, ids));
            inputs.put("attention_mask", OnnxTensor.createTensor(env, mask));
            if (takesTokenTypes) {
                inputs.put("token_type_ids", OnnxTensor.createTensor(env, types));
            }
            try (OrtSession.Result result = model.run(inputs)) {
                float[][][] tokens = (float[][][]) result.get(0).getValue();
                return meanPool(tokens, mask);
            }
        } finally {
            inputs.values().forEach(OnnxTensor::close);
        }
    }

    private static float[][] meanPool(float[][][] tokens, long[][] mask) {
        float[][] out = new float[tokens.length][];
        for (int r = 0; r < tokens.length; r++) {
            int dim = tokens[r][0].length;
            float[] sum = new float[dim];
            int count = 0;
            for (int t = 0; t < tokens[r].length; t++) {
                if (mask[r][t] == 0) {
                    continue;
                }
                count++;
                for (int d = 0; d < dim; d++) {
                    sum[d] += tokens[r][t][d];
                }
            }
            out[r] = Vectors.normalize(sum, Math.max(count, 1));
        }
        return out;
    }

    /** The session belongs to the model registry; only the tokenizer is this embedder's own. */
    @Override
    public void close() {
        tokenizer.close();
    }
}
