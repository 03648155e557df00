package io.ragsearch.rerank;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a tiny ONNX "cross-encoder" in the Hugging Face export shape (inputs input_ids,
 * attention_mask, token_type_ids; output logits [B,1] or [B,2]) whose logit is known exactly:
 * {@code WEIGHT × (passage tokens) + BIAS}, passage tokens being those with token type 1 under
 * the mask. The ONNX protobuf is encoded by hand (a few message types suffice), so the tests
 * make their own model without any converter.
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
        Proto graph = new Proto()
                .message(1, node(new String[] {"attention_mask", "token_type_ids"}, "passage_mask", "Mul", null))
                .message(1, node(new String[] {"passage_mask"}, "passage_mask_f", "Cast", new Proto().string(1, "to").varint(3, 1).varint(20, 2)))
                .message(1, node(new String[] {"passage_mask_f", "axes"}, "count", "ReduceSum", new Proto().string(1, "keepdims").varint(3, 1).varint(20, 2)))
                .message(1, node(new String[] {"count", "weight"}, "scaled", "Mul", null))
                .message(1, node(new String[] {"scaled", "bias"}, twoClasses ? "positive" : "logits", "Add", null));
        if (twoClasses) {
            graph.message(1, node(new String[] {"positive"}, "negative", "Neg", null))
                    .message(1, node(new String[] {"negative", "positive"}, "logits", "Concat", new Proto().string(1, "axis").varint(3, 1).varint(20, 2)));
        }
        graph.string(2, "tiny-cross-encoder")
                .message(5, floatScalar("weight", WEIGHT))
                .message(5, floatScalar("bias", BIAS))
                .message(5, new Proto().varint(1, 1).varint(2, 7).packedLongs(7, 1).string(8, "axes"))
                .message(11, input("input_ids", 7))
                .message(11, input("attention_mask", 7))
                .message(11, input("token_type_ids", 7))
                .message(12, valueInfo("logits", 1, new Proto()
                        .message(1, new Proto().string(2, "batch"))
                        .message(1, new Proto().varint(1, twoClasses ? 2 : 1))));
        return new Proto()
                .varint(1, 8) // IR version 8
                .string(2, "ragsearch-tests")
                .message(7, graph)
                .message(8, new Proto().string(1, "").varint(2, 13)) // opset 13
                .bytes();
    }

    private static Proto node(String[] inputs, String output, String op, Proto attribute) {
        Proto n = new Proto();
        for (String in : inputs) {
            n.string(1, in);
        }
        n.string(2, output).string(3, op + "_" + output).string(4, op);
        if (attribute != null) {
            n.message(5, attribute);
        }
        return n;
    }

    private static Proto floatScalar(String name, float value) {
        return new Proto().varint(2, 1).packedFloats(4, value).string(8, name);
    }

    private static Proto input(String name, int elemType) {
        return valueInfo(name, elemType, new Proto()
                .message(1, new Proto().string(2, "batch"))
                .message(1, new Proto().string(2, "sequence")));
    }

    private static Proto valueInfo(String name, int elemType, Proto shape) {
        Proto tensorType = new Proto().varint(1, elemType).message(2, shape);
        return new Proto().string(1, name).message(2, new Proto().message(1, tensorType));
    }

    /** Just enough of the protobuf wire format: varints, length-delimited fields, packed values. */
    private static final class Proto {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Proto varint(int field, long value) {
            tag(field, 0);
            writeVarint(out, value);
            return this;
        }

        Proto string(int field, String value) {
            return lengthDelimited(field, value.getBytes(StandardCharsets.UTF_8));
        }

        Proto message(int field, Proto message) {
            return lengthDelimited(field, message.bytes());
        }

        Proto packedFloats(int field, float... values) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            for (float v : values) {
                int bits = Float.floatToIntBits(v);
                for (int i = 0; i < 4; i++) {
                    b.write((bits >>> (8 * i)) & 0xFF);
                }
            }
            return lengthDelimited(field, b.toByteArray());
        }

        Proto packedLongs(int field, long... values) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            for (long v : values) {
                writeVarint(b, v);
            }
            return lengthDelimited(field, b.toByteArray());
        }

        byte[] bytes() {
            return out.toByteArray();
        }

        private Proto lengthDelimited(int field, byte[] data) {
            tag(field, 2);
            writeVarint(out, data.length);
            out.writeBytes(data);
            return this;
        }

        private void tag(int field, int wireType) {
            writeVarint(out, ((long) field << 3) | wireType);
        }

        private static void writeVarint(ByteArrayOutputStream out, long value) {
            while ((value & ~0x7FL) != 0) {
                out.write((int) ((value & 0x7F) | 0x80));
                value >>>= 7;
            }
            out.write((int) value);
        }
    }
}
