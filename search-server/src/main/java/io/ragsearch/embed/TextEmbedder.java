package io.ragsearch.embed;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sentence embeddings from an ONNX encoder in the Hugging Face export layout (all-MiniLM-L6-v2
 * built in; BERT or XLM-R style, with or without token_type_ids), pooled and normalised as its
 * {@link EmbeddingSettings} say. Queries and passages are embedded through separate methods
 * because some models (e5) were trained with a different prefix on each side.
 * One session serves all threads (ONNX Runtime sessions are safe to run concurrently).
 */
public final class TextEmbedder implements AutoCloseable {

    /**
     * Texts tokenized together; each is then run through the model alone (see
     * {@link #embedBatch}).
     */
    private static final int BATCH = 16;
    /** Token-level outputs by the names Hugging Face and sentence-transformers exports give them. */
    private static final List<String> TOKEN_OUTPUTS = List.of("last_hidden_state", "token_embeddings");

    private final String name;
    private final String digest;
    private final ModelRegistry.LoadedModel model;
    private final TextTokenizer tokenizer;
    private final EmbeddingSettings settings;
    private final boolean takesTokenTypes;
    private final String output;
    private final boolean tokenLevel;
    private final int dimension;
    private final AtomicLong textsEmbedded = new AtomicLong();

    private TextEmbedder(ModelRegistry.LoadedModel model, TextTokenizer tokenizer, String tokenizerDigest,
                         EmbeddingSettings settings) throws OrtException {
        this.name = model.name();
        this.model = model;
        this.tokenizer = tokenizer;
        this.settings = settings;
        OrtSession session = model.session();
        Set<String> inputs = session.getInputNames();
        if (!inputs.contains("input_ids") || !inputs.contains("attention_mask")) {
            throw new OrtException("embedding model needs inputs input_ids and attention_mask, has " + inputs);
        }
        this.takesTokenTypes = inputs.contains("token_type_ids");
        Map<String, NodeInfo> outputs = session.getOutputInfo();
        String auto = defaultOutput(outputs);
        this.output = settings.output() != null ? settings.output() : auto;
        int rank = rank(outputs.get(output));
        if (rank == 0) {
            throw new OrtException("embedding model has no output '" + output + "'; it has " + outputs.keySet());
        }
        if (rank != 2 && rank != 3) {
            throw new OrtException("embedding output '" + output + "' has rank " + rank
                    + "; expected [batch, tokens, dim] (pooled here) or [batch, dim]");
        }
        this.tokenLevel = rank == 3;
        // Stored embeddings are matched on this: everything that changes passage vectors must change it.
        this.digest = EmbedderDigest.of(model.digest(), tokenizerDigest, settings, output);
        this.dimension = embedBatch(List.of("dimension probe"), "")[0].length;
        if (settings.dimension() != null && settings.dimension() != dimension) {
            throw new OrtException("output '" + output + "' gives vectors of " + dimension + " dimensions, the configuration says "
                    + settings.dimension() + " (models.embedding.dimension): another model, or another output of it, than the one meant");
        }
    }

    /** The tokenizer alone, with the built-in length, for judging a corpus without loading the model. */
    public static TextTokenizer loadTokenizer(ModelFiles files) throws IOException {
        return loadTokenizer(files, EmbeddingSettings.DEFAULTS);
    }

    public static TextTokenizer loadTokenizer(ModelFiles files, EmbeddingSettings settings) throws IOException {
        return Tokenizers.fromJson(files.readTokenizer(), settings.maxSeqLen());
    }

    public static TextEmbedder load(ModelRegistry registry, ModelFiles files, SessionSettings session) throws IOException {
        return load(registry, files, session, EmbeddingSettings.DEFAULTS);
    }

    public static TextEmbedder load(ModelRegistry registry, ModelFiles files, SessionSettings session,
                                    EmbeddingSettings settings) throws IOException {
        return load(registry, files, session, settings, loadTokenizer(files, settings));
    }

    /**
     * With a tokenizer already loaded from the same files and settings (taken over: closed with
     * the embedder): one copy of the vocabulary, not two (in DJL's Rust library a closed
     * tokenizer's native memory does not come back).
     */
    public static TextEmbedder load(ModelRegistry registry, ModelFiles files, SessionSettings session,
                                    EmbeddingSettings settings, TextTokenizer tokenizer) throws IOException {
        ModelRegistry.LoadedModel model;
        String tokenizerDigest;
        try {
            // Before the weights are read: a length past the position table fails only when a text that long arrives.
            String tooLong = files.positions().problem("models.embedding.maxSeqLen", settings.maxSeqLen());
            if (tooLong != null) {
                throw new IOException("embedding model " + files.name() + ": " + tooLong);
            }
            tokenizerDigest = files.tokenizerDigest();
            model = registry.load(files, session);
        } catch (IOException | RuntimeException e) {
            tokenizer.close();
            throw e;
        }
        try {
            return new TextEmbedder(model, tokenizer, tokenizerDigest, settings);
        } catch (OrtException | RuntimeException e) {
            tokenizer.close();
            throw new IOException("embedding model " + files.name() + " does not fit: " + e.getMessage(), e);
        }
    }

    public String name() {
        return name;
    }

    /**
     * The identity stored embeddings are checked against: the model file's and the tokenizer
     * file's sha256 and every setting that changes passage vectors ({@link EmbedderDigest}).
     */
    public String digest() {
        return digest;
    }

    public int dimension() {
        return dimension;
    }

    public EmbeddingSettings settings() {
        return settings;
    }

    /** The model output the vectors come from. */
    public String output() {
        return output;
    }

    public TextTokenizer tokenizer() {
        return tokenizer;
    }

    /** A search query's vector: the query prefix, then the text. */
    public float[] embedQuery(String query) {
        return embedWithPrefix(List.of(query), settings.queryPrefix())[0];
    }

    /** Article texts' vectors (indexing, ingest): the passage prefix, then the text. */
    public float[][] embedPassages(List<String> passages) {
        return embedWithPrefix(passages, settings.passagePrefix());
    }

    /** Texts embedded since load (the dimension probe included): shows what work startup did. */
    public long textsEmbedded() {
        return textsEmbedded.get();
    }

    private float[][] embedWithPrefix(List<String> texts, String prefix) {
        // Batched by length: a batch is padded to its longest text, so mixing a 20-token title
        // with a 500-token article would make the short one cost as much as the long one.
        Integer[] order = new Integer[texts.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, java.util.Comparator.comparingInt(i -> texts.get(i).length()));
        float[][] out = new float[texts.size()][];
        for (int from = 0; from < texts.size(); from += BATCH) {
            int to = Math.min(texts.size(), from + BATCH);
            List<String> batchTexts = new java.util.ArrayList<>(to - from);
            for (int j = from; j < to; j++) {
                batchTexts.add(texts.get(order[j]));
            }
            try {
                float[][] batch = embedBatch(batchTexts, prefix);
                for (int j = 0; j < batch.length; j++) {
                    out[order[from + j]] = batch[j];
                }
            } catch (OrtException e) {
                throw new IllegalStateException("embedding failed: " + e.getMessage(), e);
            }
        }
        return out;
    }

    /**
     * One model run per text, as long as its own tokens. A padded batch costs more per text than
     * the same texts run alone on the CPUs measured (docs/models.md, "Serving": e5-small 1.14–1.18×
     * fewer passages per CPU-second in length-sorted batches of 16 with 5 % padding, the
     * batch's activations leaving the caches), and a run without padding lets the built-in
     * model's attention skip its mask, which is what ONNX Runtime's flash-attention kernel needs.
     */
    private float[][] embedBatch(List<String> texts, String prefix) throws OrtException {
        textsEmbedded.addAndGet(texts.size());
        TokenEncoding[] encodings = tokenizer.encodeAll(prefix.isEmpty() ? texts : texts.stream().map(t -> prefix + t).toList());
        float[][] out = new float[encodings.length][];
        for (int r = 0; r < encodings.length; r++) {
            out[r] = embedAlone(encodings[r]);
        }
        return out;
    }

    private float[] embedAlone(TokenEncoding encoding) throws OrtException {
        long[][] ids = {encoding.ids()};
        long[][] mask = {encoding.attentionMask()};
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        Map<String, OnnxTensor> inputs = new HashMap<>();
        try {
            inputs.put("input_ids", OnnxTensor.createTensor(env, ids));
            inputs.put("attention_mask", OnnxTensor.createTensor(env, mask));
            if (takesTokenTypes) {
                inputs.put("token_type_ids", OnnxTensor.createTensor(env, new long[][] {encoding.typeIds()}));
            }
            try (OrtSession.Result result = model.run(inputs)) {
                Optional<ai.onnxruntime.OnnxValue> value = result.get(output);
                if (value.isEmpty()) {
                    throw new OrtException("embedding model returned no output '" + output + "'");
                }
                float[] pooled = tokenLevel
                        ? TokenPooling.pool(settings.pooling(), (float[][][]) value.get().getValue(), mask)[0]
                        : ((float[][]) value.get().getValue())[0];
                if (settings.normalize()) {
                    Vectors.scaleToUnitLength(pooled);
                }
                return pooled;
            }
        } finally {
            inputs.values().forEach(OnnxTensor::close);
        }
    }

    /** The output read when the configuration names none (see {@link EmbeddingSettings#output()}). */
    private static String defaultOutput(Map<String, NodeInfo> outputs) {
        for (String preferred : TOKEN_OUTPUTS) {
            if (rank(outputs.get(preferred)) == 3) {
                return preferred;
            }
        }
        for (int wanted : new int[] {3, 2}) {
            for (Map.Entry<String, NodeInfo> e : outputs.entrySet()) {
                if (rank(e.getValue()) == wanted) {
                    return e.getKey();
                }
            }
        }
        return outputs.keySet().iterator().next();
    }

    /** The rank of a float tensor output; 0 for anything else or absent. */
    private static int rank(NodeInfo info) {
        return info != null && info.getInfo() instanceof TensorInfo t
                && t.type == ai.onnxruntime.OnnxJavaType.FLOAT ? t.getShape().length : 0;
    }

    /** The session belongs to the model registry; only the tokenizer is this embedder's own. */
    @Override
    public void close() {
        tokenizer.close();
    }
}
