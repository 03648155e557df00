package io.ragsearch.embed;

import io.ragsearch.onnx.OnnxProto;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes a tiny XLM-R style embedding model (inputs input_ids and attention_mask, no
 * token_type_ids) whose vectors are known exactly. Token t of a row gets
 * {@code E[id_t] + S}, where E is a fixed table ({@link #row}) and S the sum of E over the
 * row's tokens under the mask, so the first token's vector depends on the whole text as a real
 * encoder's does. Outputs, in this order: {@code sentence_embedding} = S [batch, dim] and
 * {@code last_hidden_state} [batch, tokens, dim]. Hence, for a text of n tokens:
 * mean pooling gives S·(1 + 1/n), CLS pooling E[id_0] + S.
 */
public final class TinyEmbeddingModel {

    public static final int DIM = 4;

    private TinyEmbeddingModel() {
    }

    /** A model directory: model.onnx and the Unigram tokenizer.json of {@link UnigramTokenizerJson}. */
    public static Path write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.write(dir.resolve("model.onnx"), model(UnigramTokenizerJson.vocabulary().size()));
        Files.writeString(dir.resolve("tokenizer.json"), UnigramTokenizerJson.json());
        return dir;
    }

    /**
     * The same model with its table in {@code model.onnx_data} (ONNX external data, the layout of
     * exports over 2 GB such as bge-m3), scaled by {@code scale} so a test can change the weights
     * while the graph file stays byte for byte the same.
     */
    public static Path writeWithExternalData(Path dir, float scale) throws IOException {
        Files.createDirectories(dir);
        float[] table = table(UnigramTokenizerJson.vocabulary().size());
        for (int i = 0; i < table.length; i++) {
            table[i] *= scale;
        }
        byte[] data = OnnxProto.littleEndian(table);
        Files.write(dir.resolve(ModelFiles.EXTERNAL_DATA), data);
        Files.write(dir.resolve("model.onnx"), model(OnnxProto.externalFloatTensor("table",
                new long[] {table.length / DIM, DIM}, ModelFiles.EXTERNAL_DATA, 0, data.length)));
        Files.writeString(dir.resolve("tokenizer.json"), UnigramTokenizerJson.json());
        return dir;
    }

    /** E[id]: distinct, never zero, not parallel to one another. */
    public static float[] row(int id) {
        return new float[] {1 + id % 5, (id * 7) % 11 - 5, 0.5f + (id * 3) % 4, id == 0 ? 2 : -1};
    }

    /** The exact vectors for a row of token ids, before normalisation. */
    public static float[] sum(List<Integer> ids) {
        float[] s = new float[DIM];
        for (int id : ids) {
            float[] e = row(id);
            for (int d = 0; d < DIM; d++) {
                s[d] += e[d];
            }
        }
        return s;
    }

    public static float[] mean(List<Integer> ids) {
        float[] s = sum(ids);
        float[] out = new float[DIM];
        for (int d = 0; d < DIM; d++) {
            out[d] = s[d] + s[d] / ids.size();
        }
        return out;
    }

    public static float[] cls(List<Integer> ids) {
        float[] s = sum(ids);
        float[] first = row(ids.get(0));
        for (int d = 0; d < DIM; d++) {
            s[d] += first[d];
        }
        return s;
    }

    private static float[] table(int vocabSize) {
        float[] table = new float[vocabSize * DIM];
        for (int id = 0; id < vocabSize; id++) {
            System.arraycopy(row(id), 0, table, id * DIM, DIM);
        }
        return table;
    }

    static byte[] model(int vocabSize) {
        return model(OnnxProto.floatTensor("table", new long[] {vocabSize, DIM}, table(vocabSize)));
    }

    private static byte[] model(OnnxProto table) {
        OnnxProto graph = new OnnxProto()
                .message(1, OnnxProto.node(new String[] {"table", "input_ids"}, "tokens", "Gather", null))
                .message(1, OnnxProto.node(new String[] {"attention_mask"}, "mask_f", "Cast", OnnxProto.intAttribute("to", 1)))
                .message(1, OnnxProto.node(new String[] {"mask_f", "axis2"}, "mask3", "Unsqueeze", null))
                .message(1, OnnxProto.node(new String[] {"tokens", "mask3"}, "masked", "Mul", null))
                .message(1, OnnxProto.node(new String[] {"masked", "axis1"}, "context", "ReduceSum", OnnxProto.intAttribute("keepdims", 1)))
                .message(1, OnnxProto.node(new String[] {"tokens", "context"}, "last_hidden_state", "Add", null))
                .message(1, OnnxProto.node(new String[] {"masked", "axis1"}, "sentence_embedding", "ReduceSum", OnnxProto.intAttribute("keepdims", 0)))
                .string(2, "tiny-xlmr-embedding")
                .message(5, table)
                .message(5, OnnxProto.longList("axis1", 1))
                .message(5, OnnxProto.longList("axis2", 2))
                .message(11, OnnxProto.valueInfo("input_ids", 7, "batch", "sequence"))
                .message(11, OnnxProto.valueInfo("attention_mask", 7, "batch", "sequence"))
                .message(12, OnnxProto.valueInfo("sentence_embedding", 1, "batch", DIM))
                .message(12, OnnxProto.valueInfo("last_hidden_state", 1, "batch", "sequence", DIM));
        return OnnxProto.model(graph);
    }
}
