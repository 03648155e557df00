#!/usr/bin/env python3
"""Write the rerank cost stand-in of XLM-R-large shape: a cross-encoder graph with random weights.

This is NOT a ranker. Its weights are random numbers drawn from a fixed seed; its one output is a
meaningless logit. It exists so that the server's calibration, its rerank concurrency bound and
the operator's budget can be exercised at the memory and CPU cost of the large multilingual
cross-encoders that field deployments reranked Korean text with (XLM-R large: 24 layers, hidden
1024, 16 heads, FFN 4096, 250,002-piece vocabulary, 514 positions, one relevance logit).

The graph is what a Hugging Face sequence-classification export of such a model looks like after
ONNX Runtime's dynamic int8 quantization, the form a CPU deployment runs:
  * inputs input_ids and attention_mask (int64 [batch, seq]), output logits (float32 [batch, 1]);
  * embeddings: the word table is int8 (Gather, then DequantizeLinear of the looked-up rows),
    positions numbered as XLM-R does (padding offset 1, so the first token is row 2 of 514),
    the single token-type row added, LayerNorm;
  * 24 post-LayerNorm encoder layers with unfused attention (MatMul, scale, mask, Softmax, MatMul)
    and an erf GELU, every linear layer as DynamicQuantizeLinear -> MatMulInteger -> Cast -> Mul
    by the two scales -> Add bias (uint8 activations, int8 weights, per tensor), the pattern ONNX
    Runtime fuses into its int8 matrix kernels;
  * the classification head on the first token: dense, tanh, dense to one logit.
With --precision fp32 the linear layers and the word table are plain float32 (2.2 GB, kept as
external data in model.onnx_data, as ONNX requires above 2 GB) for comparison.

The same encoder serves the tests of a model a user brings (docs/models.md, "A larger model of
your own"; scripts/model/fetch-user-model-fixtures.sh): --head encoder writes a feature-extraction
export (output last_hidden_state [batch, seq, 1024], no classifier), --labels 2 a two-class
classifier (logits [batch, 2]), and --config-json the config.json an export carries beside
model.onnx (model_type, hidden_size, max_position_embeddings), which the server reads to refuse a
maxSeqLen beyond the position table. These are random weights too: never an embedder or a ranker.

Deterministic: the same arguments and the pinned numpy/onnx give the same bytes (numpy's PCG64
stream, no timestamps). --layers makes a smaller model of the same width (tests use it).
"""
import argparse
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HIDDEN = 1024
HEADS = 16
FFN = 4096
VOCAB = 250_002
POSITIONS = 514
PADDING_IDX = 1
LAYERS = 24
EPS = 1e-5
OPSET = 17  # LayerNormalization
IR_VERSION = 8
SEED = 28  # issue 28
# Random weights of the usual initialiser's spread (std 0.02). Uniform int8 in [-127, 127] has
# std 127/sqrt(3), so this scale gives the same spread once dequantized.
INIT_STD = 0.02
INT8_SCALE = INIT_STD / (127 / np.sqrt(3))
EXTERNAL_DATA = "model.onnx_data"


class Graph:
    """Collects nodes and initializers; names are generated, weights drawn from one stream."""

    def __init__(self, precision, rng):
        self.precision = precision
        self.rng = rng
        self.nodes = []
        self.inits = []
        self.count = 0
        self.quantized_inputs = {}

    def name(self, stem):
        self.count += 1
        return f"{stem}_{self.count}"

    def const(self, stem, array):
        n = self.name(stem)
        self.inits.append(numpy_helper.from_array(np.asarray(array), n))
        return n

    def op(self, op_type, inputs, stem=None, outputs=1, **attrs):
        outs = [self.name(stem or op_type.lower()) for _ in range(outputs)]
        self.nodes.append(helper.make_node(op_type, inputs, outs, name=self.name("n_" + op_type), **attrs))
        return outs[0] if outputs == 1 else outs

    def weight(self, stem, rows, cols):
        """A [rows, cols] weight: int8 with its scale, or float32."""
        if self.precision == "int8":
            w = self.rng.integers(-127, 128, size=(rows, cols), dtype=np.int8)
            return self.const(stem + "_q", w), self.const(stem + "_scale", np.float32(INT8_SCALE))
        w = self.rng.standard_normal(size=(rows, cols), dtype=np.float32)
        w *= np.float32(INIT_STD)
        return self.const(stem, w), None

    def linear(self, x, stem, n_in, n_out):
        """x @ W + b, as ONNX Runtime's dynamic quantization writes it (or plain MatMul in fp32)."""
        w, scale = self.weight(stem, n_in, n_out)
        bias = self.const(stem + "_bias", np.zeros(n_out, dtype=np.float32))
        if scale is None:
            return self.op("Add", [self.op("MatMul", [x, w]), bias])
        if x not in self.quantized_inputs:  # Q, K and V share one quantization of their input
            self.quantized_inputs[x] = self.op("DynamicQuantizeLinear", [x], stem="xq", outputs=3)
        xq, xs, xzp = self.quantized_inputs[x]
        wzp = self.const(stem + "_zp", np.int8(0))
        y32 = self.op("MatMulInteger", [xq, w, xzp, wzp])
        yf = self.op("Cast", [y32], to=TensorProto.FLOAT)
        s = self.op("Mul", [xs, scale])
        return self.op("Add", [self.op("Mul", [yf, s]), bias])

    def layer_norm(self, x):
        gamma = self.const("ln_gamma", np.ones(HIDDEN, dtype=np.float32))
        beta = self.const("ln_beta", np.zeros(HIDDEN, dtype=np.float32))
        return self.op("LayerNormalization", [x, gamma, beta], axis=-1, epsilon=EPS)


def embeddings(g):
    """Word + position + token-type rows, then LayerNorm."""
    if g.precision == "int8":
        table, scale = g.weight("word_embeddings", VOCAB, HIDDEN)
        zp = g.const("word_embeddings_zp", np.int8(0))
        words = g.op("DequantizeLinear", [g.op("Gather", [table, "input_ids"], axis=0), scale, zp])
    else:
        table, _ = g.weight("word_embeddings", VOCAB, HIDDEN)
        words = g.op("Gather", [table, "input_ids"], axis=0)
    # XLM-R numbers the tokens of a row from padding_idx + 1 and gives padding the row padding_idx.
    mask = g.op("Cast", ["attention_mask"], to=TensorProto.INT64)
    running = g.op("CumSum", [mask, g.const("axis1", np.int64(1))])
    pos_ids = g.op("Add", [g.op("Mul", [running, mask]), g.const("padding_idx", np.int64(PADDING_IDX))])
    pos_table = g.const("position_embeddings",
                        (g.rng.standard_normal((POSITIONS, HIDDEN), dtype=np.float32) * np.float32(INIT_STD)))
    positions = g.op("Gather", [pos_table, pos_ids], axis=0)
    token_type = g.const("token_type_embedding", np.zeros(HIDDEN, dtype=np.float32))
    return g.layer_norm(g.op("Add", [g.op("Add", [words, positions]), token_type]))


def attention_bias(g):
    """0 where a token may be attended to, the lowest float where it is padding: [batch, 1, 1, seq]."""
    m = g.op("Cast", ["attention_mask"], to=TensorProto.FLOAT)
    m = g.op("Unsqueeze", [m, g.const("axes12", np.array([1, 2], dtype=np.int64))])
    inverted = g.op("Sub", [g.const("one", np.float32(1)), m])
    return g.op("Mul", [inverted, g.const("lowest", np.float32(np.finfo(np.float32).min))])


def encoder_layer(g, x, bias, index):
    head_dim = HIDDEN // HEADS
    split = g.const("split_heads", np.array([0, 0, HEADS, head_dim], dtype=np.int64))
    merge = g.const("merge_heads", np.array([0, 0, HIDDEN], dtype=np.int64))

    def heads(t, perm):
        return g.op("Transpose", [g.op("Reshape", [t, split])], perm=perm)

    q = heads(g.linear(x, f"l{index}_query", HIDDEN, HIDDEN), [0, 2, 1, 3])
    k = heads(g.linear(x, f"l{index}_key", HIDDEN, HIDDEN), [0, 2, 3, 1])
    v = heads(g.linear(x, f"l{index}_value", HIDDEN, HIDDEN), [0, 2, 1, 3])
    scores = g.op("Div", [g.op("MatMul", [q, k]), g.const("sqrt_head_dim", np.float32(np.sqrt(head_dim)))])
    probs = g.op("Softmax", [g.op("Add", [scores, bias])], axis=-1)
    context = g.op("Reshape", [g.op("Transpose", [g.op("MatMul", [probs, v])], perm=[0, 2, 1, 3]), merge])
    attended = g.layer_norm(g.op("Add", [g.linear(context, f"l{index}_attn_out", HIDDEN, HIDDEN), x]))

    h = g.linear(attended, f"l{index}_ffn_in", HIDDEN, FFN)
    erf = g.op("Erf", [g.op("Div", [h, g.const("sqrt2", np.float32(np.sqrt(2)))])])
    gelu = g.op("Mul", [g.op("Mul", [h, g.const("half", np.float32(0.5))]),
                        g.op("Add", [erf, g.const("one", np.float32(1))])])
    return g.layer_norm(g.op("Add", [g.linear(gelu, f"l{index}_ffn_out", FFN, HIDDEN), attended]))


def classification_head(g, x, labels):
    first = g.op("Gather", [x, g.const("first_token", np.int64(0))], axis=1)
    dense = g.op("Tanh", [g.linear(first, "head_dense", HIDDEN, HIDDEN)])
    return g.linear(dense, "head_out", HIDDEN, labels)


def build(layers, precision, seed, head="classifier", labels=1):
    g = Graph(precision, np.random.Generator(np.random.PCG64(seed)))
    x = embeddings(g)
    bias = attention_bias(g)
    for i in range(layers):
        x = encoder_layer(g, x, bias, i)
    inputs = [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
              helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "seq"])]
    if head == "encoder":
        g.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"], name="n_last_hidden_state"))
        graph = helper.make_graph(g.nodes, "xlmr-large-random-encoder", inputs,
                                  [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT,
                                                                 ["batch", "seq", HIDDEN])], g.inits)
        purpose = "test fixture of XLM-R-large shape, random weights, not an embedder"
        doc = f"Encoder of XLM-R-large shape with random weights (seed {seed}, {layers} layers, {precision}): not an embedder."
    else:
        logits = classification_head(g, x, labels)
        g.nodes.append(helper.make_node("Identity", [logits], ["logits"], name="n_logits"))
        graph = helper.make_graph(g.nodes, "xlmr-large-pair-cost", inputs,
                                  [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", labels])],
                                  g.inits)
        purpose = "cost stand-in, random weights, not a ranker"
        doc = ("Rerank COST STAND-IN of XLM-R-large shape with random weights "
               f"(seed {seed}, {layers} layers, {precision}): not a ranker.")
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                              producer_name="ragsearch scripts/model/xlmr_pair_cost.py", doc_string=doc)
    model.ir_version = IR_VERSION
    props = {"ragsearch.purpose": purpose, "ragsearch.layers": str(layers), "ragsearch.precision": precision,
             "ragsearch.seed": str(seed)}
    if labels != 1:  # only where it differs, so the pinned cost stand-in keeps its bytes
        props["ragsearch.labels"] = str(labels)
    onnx.helper.set_model_props(model, props)
    return model


def config_json(layers):
    """What a Hugging Face export's config.json says about this shape (the server reads three keys)."""
    return ('{\n  "model_type": "xlm-roberta",\n  "hidden_size": %d,\n  "num_hidden_layers": %d,\n'
            '  "num_attention_heads": %d,\n  "intermediate_size": %d,\n  "vocab_size": %d,\n'
            '  "max_position_embeddings": %d,\n  "pad_token_id": %d\n}\n'
            % (HIDDEN, layers, HEADS, FFN, VOCAB, POSITIONS, PADDING_IDX))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="directory to write model.onnx into")
    parser.add_argument("--layers", type=int, default=LAYERS, help=f"encoder layers (default {LAYERS})")
    parser.add_argument("--precision", choices=["int8", "fp32"], default="int8")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--head", choices=["classifier", "encoder"], default="classifier",
                        help="classifier: logits (a cross-encoder); encoder: last_hidden_state (an embedding model)")
    parser.add_argument("--labels", type=int, default=1, help="classifier outputs (1 or 2)")
    parser.add_argument("--config-json", action="store_true", help="also write config.json as an export has it")
    args = parser.parse_args()
    if not 1 <= args.layers <= LAYERS:
        parser.error(f"--layers must be 1..{LAYERS}")
    if args.labels not in (1, 2):
        parser.error("--labels must be 1 or 2")
    model = build(args.layers, args.precision, args.seed, args.head, args.labels)
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "model.onnx")
    if args.precision == "fp32":
        onnx.save_model(model, path, save_as_external_data=True, all_tensors_to_one_file=True,
                        location=EXTERNAL_DATA, size_threshold=1024)
    else:
        onnx.save_model(model, path)
    if args.config_json:
        with open(os.path.join(args.out, "config.json"), "w", encoding="utf-8") as f:
            f.write(config_json(args.layers))
    print(f"wrote {path} ({os.path.getsize(path) >> 20} MiB)", file=sys.stderr)


if __name__ == "__main__":
    main()
