package io.ragsearch.rerank;

import io.ragsearch.embed.UnigramTokenizerJson;
import io.ragsearch.onnx.OnnxProto;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a tiny ONNX "cross-encoder" in the Hugging Face export shape (inputs input_ids,
 * attention_mask, token_type_ids; output logits [B,1] or [B,2]) whose logit is known exactly:
 * {@code WEIGHT × (passage tokens) + BIAS}, passage tokens being those with token type 1 under
 * the mask. The ONNX protobuf is encoded by hand ({@link OnnxProto}), so the tests make their
 * own model without any converter.
 */
final class TinyCrossEncoderModel {

    static final float WEIGHT = 0.25f;
    static final float BIAS = -2f;

    private TinyCrossEncoderModel() {
    }

    /** A model directory (model.onnx + the built-in MiniLM tokenizer.json). */
    static Path write(Path dir, boolean twoClasses) throws IOException {
        Files.createDirectories(dir);
        Files.write(dir.resolve("model.onnx"), model(twoClasses));
        try (InputStream in = TinyCrossEncoderModel.class.getResourceAsStream("/all-minilm-l6-v2-tokenizer.json")) {
            Files.write(dir.resolve("tokenizer.json"), in.readAllBytes());
        }
        return dir;
    }

    static double expectedScore(int passageTokens, boolean twoClasses) {
        double logit = WEIGHT * passageTokens + BIAS;
        return 1 / (1 + Math.exp(-(twoClasses ? 2 * logit : logit)));
    }

    static byte[] model(boolean twoClasses) {
        OnnxProto graph = new OnnxProto()
                .message(1, node(new String[] {"attention_mask", "token_type_ids"}, "passage_mask", "Mul", null))
                .message(1, node(new String[] {"passage_mask"}, "passage_mask_f", "Cast", OnnxProto.intAttribute("to", 1)))
                .message(1, node(new String[] {"passage_mask_f", "axes"}, "count", "ReduceSum", OnnxProto.intAttribute("keepdims", 1)))
                .message(1, node(new String[] {"count", "weight"}, "scaled", "Mul", null))
                .message(1, node(new String[] {"scaled", "bias"}, twoClasses ? "positive" : "logits", "Add", null));
        if (twoClasses) {
            graph.message(1, node(new String[] {"positive"}, "negative", "Neg", null))
                    .message(1, node(new String[] {"negative", "positive"}, "logits", "Concat", OnnxProto.intAttribute("axis", 1)));
        }
        graph.string(2, "tiny-cross-encoder")
                .message(5, OnnxProto.floatScalar("weight", WEIGHT))
                .message(5, OnnxProto.floatScalar("bias", BIAS))
                .message(5, OnnxProto.longList("axes", 1))
                .message(11, OnnxProto.valueInfo("input_ids", 7, "batch", "sequence"))
                .message(11, OnnxProto.valueInfo("attention_mask", 7, "batch", "sequence"))
                .message(11, OnnxProto.valueInfo("token_type_ids", 7, "batch", "sequence"))
                .message(12, OnnxProto.valueInfo("logits", 1, "batch", twoClasses ? 2 : 1));
        return OnnxProto.model(graph);
    }

    /**
     * An XLM-R style cross-encoder (bge-reranker): inputs input_ids and attention_mask only, one
     * logit {@code WEIGHT × (tokens under the mask) + BIAS}, with the test's Unigram tokenizer.
     */
    static Path writeXlmRoberta(Path dir) throws IOException {
        Files.createDirectories(dir);
        OnnxProto graph = new OnnxProto()
                .message(1, node(new String[] {"attention_mask"}, "mask_f", "Cast", OnnxProto.intAttribute("to", 1)))
                .message(1, node(new String[] {"mask_f", "axes"}, "count", "ReduceSum", OnnxProto.intAttribute("keepdims", 1)))
                .message(1, node(new String[] {"count", "weight"}, "scaled", "Mul", null))
                .message(1, node(new String[] {"scaled", "bias"}, "logits", "Add", null))
                .string(2, "tiny-xlmr-cross-encoder")
                .message(5, OnnxProto.floatScalar("weight", WEIGHT))
                .message(5, OnnxProto.floatScalar("bias", BIAS))
                .message(5, OnnxProto.longList("axes", 1))
                .message(11, OnnxProto.valueInfo("input_ids", 7, "batch", "sequence"))
                .message(11, OnnxProto.valueInfo("attention_mask", 7, "batch", "sequence"))
                .message(12, OnnxProto.valueInfo("logits", 1, "batch", 1));
        Files.write(dir.resolve("model.onnx"), OnnxProto.model(graph));
        Files.writeString(dir.resolve("tokenizer.json"), UnigramTokenizerJson.json());
        return dir;
    }

    private static OnnxProto node(String[] inputs, String output, String op, OnnxProto attribute) {
        return OnnxProto.node(inputs, output, op, attribute);
    }
}
