#!/usr/bin/env python3
"""Speed and vector agreement of convert_e5.py's forms, side by side on the same inputs.

Each DIR/FORM/model.onnx (e.g. written by `convert_e5.py --form FORM --out DIR/FORM`) runs on
ONNX Runtime with one intra-op thread over N statute articles (the `##### ` sections of the
statute files, "passage: " first, at most 512 tokens, length-sorted groups of 16 as the server
tokenizes them) and the queries of three dev sets, one at a time. Each group runs as the server
runs it, every text alone (--batch 1, no padding), or as one batch padded to its longest text
(--batch 16, how the server ran passages before issue 28); FORM@16 runs one form that way
whatever --batch says, so that e.g. `q4@16,q4` compares the two ways of serving. The forms take
turns group by group (the order reverses every group), so that all see the same moments of a shared machine;
each run is timed by the wall clock and by the calling thread's CPU time (with one intra-op
thread ONNX Runtime computes on the calling thread). Agreement is against the first form:
cosine of each passage's and query's vectors, and the share of each query's ten nearest
passages both rankings hold. Needs the venv of verify-e5.sh (onnxruntime, tokenizers).

  compare_forms.py --dir DIR --forms q4,q4-fused,int8-smooth-split64-fa --articles 96 --corpus KO_STATUTES
"""
import argparse
import glob
import os
import re
import time

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

DEV_SETS = ("ko-statutes-dev", "agency-ko-dev", "policies-en-dev")
GROUP = 16


def articles(corpus, n):
    """About n statute articles as the server groups them: all articles sorted by length, cut
    into groups of 16, and n / 16 of those groups taken evenly from the shortest to the longest
    (so a group's padding is the server's, not that of a sparse sample)."""
    found = []
    for path in sorted(glob.glob(os.path.join(corpus, "*.md"))):
        with open(path, encoding="utf-8") as f:
            found += [part.strip() for part in re.split(r"\n(?=##### )", f.read())[1:]]
    found.sort(key=len)
    count = (len(found) + GROUP - 1) // GROUP
    want = max(1, min(count, n // GROUP))
    picked = sorted({round(k * (count - 1) / max(want - 1, 1)) for k in range(want)})
    return [t for g in picked for t in found[g * GROUP:(g + 1) * GROUP]]


def queries(eval_dir, n):
    out = []
    for name in DEV_SETS:
        with open(os.path.join(eval_dir, name + ".yaml"), encoding="utf-8") as f:
            for line in f:
                m = re.match(r"\s*-?\s*query:\s*(.*)", line)
                if m:
                    out.append(m.group(1).strip().strip('"'))
    return out[:n]


def encode(tokenizer, texts, prefix):
    enc = tokenizer.encode_batch([prefix + t for t in texts])
    width = max(len(e.ids) for e in enc)
    ids = np.ones((len(enc), width), np.int64)
    mask = np.zeros((len(enc), width), np.int64)
    for i, e in enumerate(enc):
        ids[i, :len(e.ids)] = e.ids
        mask[i, :len(e.ids)] = 1
    return ids, mask


def pooled(hidden, mask):
    v = (hidden * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", required=True, help="folder holding one sub-folder per form")
    ap.add_argument("--forms", required=True, help="comma-separated; the first is the reference")
    ap.add_argument("--corpus", required=True, help="the Korean statutes folder")
    ap.add_argument("--articles", type=int, default=96)
    ap.add_argument("--queries", type=int, default=60)
    ap.add_argument("--batch", type=int, choices=(1, GROUP), default=1,
                    help="texts per run: 1 as the server runs them (default), 16 padded batches")
    args = ap.parse_args()
    forms = args.forms.split(",")
    batch = {f: int(f.split("@")[1]) if "@" in f else args.batch for f in forms}
    folder = {f: f.split("@")[0] for f in forms}

    tokenizer = Tokenizer.from_file(os.path.join(args.dir, folder[forms[0]], "tokenizer.json"))
    tokenizer.enable_truncation(512)
    texts = articles(args.corpus, args.articles)
    asked = queries(os.path.join(here, "..", "..", "eval"), args.queries)
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    sessions = {f: ort.InferenceSession(os.path.join(args.dir, folder[f], "model.onnx"), options,
                                        providers=["CPUExecutionProvider"]) for f in forms}
    groups = [texts[i:i + GROUP] for i in range(0, len(texts), GROUP)]
    # each group as one padded batch, and as one run per text
    runs = {GROUP: [[encode(tokenizer, g, "passage: ")] for g in groups],
            1: [[encode(tokenizer, [t], "passage: ") for t in g] for g in groups]}
    wall = dict.fromkeys(forms, 0.0)
    cpu = dict.fromkeys(forms, 0.0)
    vectors = {f: [] for f in forms}
    for f in forms:  # a session's first run pays one-off set-up
        ids, mask = runs[1][0][0]
        sessions[f].run(None, {"input_ids": ids, "attention_mask": mask})
    for i in range(len(groups)):
        for f in forms if i % 2 == 0 else forms[::-1]:
            for ids, mask in runs[batch[f]][i]:
                w0, c0 = time.perf_counter(), time.thread_time()
                hidden = sessions[f].run(None, {"input_ids": ids, "attention_mask": mask})[0]
                wall[f] += time.perf_counter() - w0
                cpu[f] += time.thread_time() - c0
                vectors[f].append(pooled(hidden, mask))
    query_ms = {f: [] for f in forms}
    query_vectors = {f: [] for f in forms}
    for q in asked:
        ids, mask = encode(tokenizer, [q], "query: ")
        for f in forms:
            w0 = time.perf_counter()
            hidden = sessions[f].run(None, {"input_ids": ids, "attention_mask": mask})[0]
            query_ms[f].append((time.perf_counter() - w0) * 1000)
            query_vectors[f].append(pooled(hidden, mask)[0])

    ref = forms[0]
    p0, q0 = np.concatenate(vectors[ref]), np.array(query_vectors[ref])
    top0 = np.argsort(-(q0 @ p0.T), axis=1)[:, :10]
    tokens = sum(int(m.sum()) for _, m in (r[0] for r in runs[GROUP]))
    padded = sum(m.size for _, m in (r[0] for r in runs[GROUP]))
    print(f"{len(texts)} articles ({tokens} tokens; {padded} positions in padded batches of {GROUP}), "
          f"{len(asked)} queries, 1 thread; against {ref}")
    print("| form | passages/s (wall) | × | passages per CPU-second | × | query p50 ms "
          "| passage cosine min / mean | query cosine min | top-10 overlap |")
    print("|---|---|---|---|---|---|---|---|---|")
    for f in forms:
        p, q = np.concatenate(vectors[f]), np.array(query_vectors[f])
        cos_p, cos_q = (p * p0).sum(1), (q * q0).sum(1)
        top = np.argsort(-(q @ p.T), axis=1)[:, :10]
        overlap = np.mean([len(set(a) & set(b)) / 10 for a, b in zip(top, top0)])
        print(f"| {f} | {len(texts) / wall[f]:.2f} | {wall[ref] / wall[f]:.2f} | {len(texts) / cpu[f]:.2f} "
              f"| {cpu[ref] / cpu[f]:.2f} | {np.median(query_ms[f]):.1f} | {cos_p.min():.5f} / {cos_p.mean():.5f} "
              f"| {cos_q.min():.5f} | {overlap:.3f} |")


if __name__ == "__main__":
    main()
