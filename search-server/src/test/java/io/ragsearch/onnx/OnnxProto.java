package io.ragsearch.onnx;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Just enough of the ONNX protobuf wire format (varints, length-delimited fields, packed
 * values) and of its messages (nodes, initializers, inputs, outputs) for tests to write their
 * own tiny models whose outputs they can predict exactly, with no converter.
 */
public final class OnnxProto {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    /** A graph node: {@code op} from {@code inputs} to {@code output}, with an optional attribute. */
    public static OnnxProto node(String[] inputs, String output, String op, OnnxProto attribute) {
        OnnxProto n = new OnnxProto();
        for (String in : inputs) {
            n.string(1, in);
        }
        n.string(2, output).string(3, op + "_" + output).string(4, op);
        if (attribute != null) {
            n.message(5, attribute);
        }
        return n;
    }

    /** An integer attribute (AttributeProto type INT). */
    public static OnnxProto intAttribute(String name, long value) {
        return new OnnxProto().string(1, name).varint(3, value).varint(20, 2);
    }

    public static OnnxProto floatScalar(String name, float value) {
        return new OnnxProto().varint(2, 1).packedFloats(4, value).string(8, name);
    }

    /** A float initializer of the given shape, values in row-major order. */
    public static OnnxProto floatTensor(String name, long[] dims, float... values) {
        return new OnnxProto().packedLongs(1, dims).varint(2, 1).packedFloats(4, values).string(8, name);
    }

    /**
     * A float initializer whose values live in another file (ONNX external data, as for models
     * over 2 GB): little-endian float32 at {@code offset} in {@code location}, beside the model.
     */
    public static OnnxProto externalFloatTensor(String name, long[] dims, String location, long offset, long length) {
        return new OnnxProto().packedLongs(1, dims).varint(2, 1).string(8, name)
                .message(13, new OnnxProto().string(1, "location").string(2, location))
                .message(13, new OnnxProto().string(1, "offset").string(2, Long.toString(offset)))
                .message(13, new OnnxProto().string(1, "length").string(2, Long.toString(length)))
                .varint(14, 1); // data_location EXTERNAL
    }

    /** Little-endian float32, as raw tensor data and external-data files hold them. */
    public static byte[] littleEndian(float... values) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(4 * values.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (float v : values) {
            b.putFloat(v);
        }
        return b.array();
    }

    /** An int64 initializer holding a list (e.g. the axes of a reduction). */
    public static OnnxProto longList(String name, long... values) {
        return new OnnxProto().varint(1, values.length).varint(2, 7).packedLongs(7, values).string(8, name);
    }

    /** A graph input or output of element type {@code elemType} (1 float, 7 int64) and dims (a String is symbolic). */
    public static OnnxProto valueInfo(String name, int elemType, Object... dims) {
        OnnxProto shape = new OnnxProto();
        for (Object d : dims) {
            shape.message(1, d instanceof String s ? new OnnxProto().string(2, s) : new OnnxProto().varint(1, ((Number) d).longValue()));
        }
        OnnxProto tensorType = new OnnxProto().varint(1, elemType).message(2, shape);
        return new OnnxProto().string(1, name).message(2, new OnnxProto().message(1, tensorType));
    }

    /** A whole model: IR version 8, default-domain opset 13. */
    public static byte[] model(OnnxProto graph) {
        return new OnnxProto()
                .varint(1, 8)
                .string(2, "ragsearch-tests")
                .message(7, graph)
                .message(8, new OnnxProto().string(1, "").varint(2, 13))
                .bytes();
    }

    public OnnxProto varint(int field, long value) {
        tag(field, 0);
        writeVarint(out, value);
        return this;
    }

    public OnnxProto string(int field, String value) {
        return lengthDelimited(field, value.getBytes(StandardCharsets.UTF_8));
    }

    public OnnxProto message(int field, OnnxProto message) {
        return lengthDelimited(field, message.bytes());
    }

    public OnnxProto packedFloats(int field, float... values) {
        return lengthDelimited(field, littleEndian(values));
    }

    public OnnxProto packedLongs(int field, long... values) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (long v : values) {
            writeVarint(b, v);
        }
        return lengthDelimited(field, b.toByteArray());
    }

    public byte[] bytes() {
        return out.toByteArray();
    }

    private OnnxProto lengthDelimited(int field, byte[] data) {
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
