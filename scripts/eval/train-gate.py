#!/usr/bin/env python3
"""Fits and validates a learned relevance gate on `ragsearch eval --dump` lines (issue 31, item 4).

Plain Python, no ML framework: a logistic regression over a handful of per-query features, fitted
by full-batch gradient descent with a small L2 penalty. It prints the cross-corpus validation
(train on every project but one, test on the one left out, threshold chosen on the training
projects for kept >= .95) beside the rule gate (RelevanceGate's input) read the same way, the
coefficients fitted on every dev question and the trade-off curve of both. The server does not
use the model: it did not beat the rule gate across corpora (docs/benchmarks.md, "Issue 31");
a gate built from it would compute the same features, in this order.

    java -jar search-server/target/ragsearch-server.jar eval --project ... --dump dev.jsonl DEV-SETS...
    python3 scripts/eval/train-gate.py dev.jsonl [--write coefficients.properties]

Dump dev sets only: a held-out set dumped is a held-out set read.
"""
import json
import math
import sys

# Per-query features, computed from one dump line (the candidates of both legs, not the fused top 32).
FEATURES = ["coverage", "cosine", "cosineGap", "agree", "lexicalGap", "rareShare", "unknown", "slots",
            "vectorTopCoverage", "lexicalTopCosine"]
TARGET_KEPT = 0.95
L2 = 0.01
WIDTH = 0.02  # e5's cosine scale (CosineEvidence's width): cosines are read in these units around the midpoint


def features(q):
    c = q["candidates"]
    lex, vec = q["lex"], q["vec"]
    mid = q["midpoint"]
    legs = [p for p, _ in lex] + [p for p, _ in vec]
    cov = max((c[str(p)][0] for p in legs), default=0.0)
    cos1 = vec[0][1] if vec else 0.0
    cos2 = vec[1][1] if len(vec) > 1 else cos1
    agree = 1.0 if lex and vec and lex[0][0] == vec[0][0] else 0.0
    lexgap = (lex[0][1] - lex[1][1]) / lex[0][1] if len(lex) > 1 and lex[0][1] > 0 else (1.0 if lex else 0.0)
    vtop = c[str(vec[0][0])][0] if vec else 0.0
    ltop = (c[str(lex[0][0])][1] - mid) / WIDTH if lex else (cos1 - mid) / WIDTH
    return [cov, (cos1 - mid) / WIDTH, (cos1 - cos2) / WIDTH, agree, lexgap, q["rareShare"], min(q["unknown"], 3),
            math.log1p(q["slots"]), vtop, ltop]


def rule_score(q):
    """Today's RelevanceGate input: the best candidate's max(coverage, cosine evidence)."""
    c = q["candidates"]
    best = 0.0
    for p in [p for p, _ in q["lex"]] + [p for p, _ in q["vec"]]:
        cov, cos, _ = c[str(p)]
        best = max(best, cov, 1 / (1 + math.exp(-(cos - q["midpoint"]) / WIDTH)))
    return best


def train(xs, ys, steps=3000, rate=0.5):
    n, d = len(xs), len(xs[0])
    mean = [sum(x[j] for x in xs) / n for j in range(d)]
    sd = [math.sqrt(sum((x[j] - mean[j]) ** 2 for x in xs) / n) or 1.0 for j in range(d)]
    zs = [[(x[j] - mean[j]) / sd[j] for j in range(d)] for x in xs]
    w, b = [0.0] * d, 0.0
    for _ in range(steps):
        gw, gb = [L2 * wj for wj in w], 0.0
        for z, y in zip(zs, ys):
            p = 1 / (1 + math.exp(-(b + sum(wj * zj for wj, zj in zip(w, z)))))
            for j in range(d):
                gw[j] += (p - y) * z[j] / n
            gb += (p - y) / n
        w = [wj - rate * g for wj, g in zip(w, gw)]
        b -= rate * gb
    # Back to raw feature units, so the server needs no scaling table.
    raw = [w[j] / sd[j] for j in range(d)]
    return raw, b - sum(w[j] * mean[j] / sd[j] for j in range(d))


def prob(model, x):
    w, b = model
    return 1 / (1 + math.exp(-(b + sum(wj * xj for wj, xj in zip(w, x)))))


def threshold_for(scores, ys, kept=TARGET_KEPT):
    """The highest threshold that keeps at least `kept` of the answerable questions."""
    pos = sorted((s for s, y in zip(scores, ys) if y), reverse=True)
    return pos[max(0, math.ceil(kept * len(pos)) - 1)]


def rates(scores, ys, t):
    pos = [s for s, y in zip(scores, ys) if y]
    neg = [s for s, y in zip(scores, ys) if not y]
    return (sum(s >= t for s in pos) / len(pos) if pos else float("nan"),
            sum(s < t for s in neg) / len(neg) if neg else float("nan"), len(pos), len(neg))


def main(argv):
    rows = [json.loads(line) for path in argv[1:] if not path.startswith("--") and not path.endswith(".properties")
            for line in open(path, encoding="utf-8")]
    write = argv[argv.index("--write") + 1] if "--write" in argv else None
    xs = [features(q) for q in rows]
    ys = [0 if q["refused"] else 1 for q in rows]
    projects = sorted({q["project"] for q in rows})
    print("cross-corpus validation: trained on the other projects, threshold there for kept >= %.2f" % TARGET_KEPT)
    print("%-14s %5s %5s | %-27s | %-27s" % ("left out", "ans", "unans", "learned: t  kept  refused", "rule: t  kept  refused"))
    totals = {"learned": [0, 0, 0, 0], "rule": [0, 0, 0, 0]}
    for held in projects:
        tr = [i for i, q in enumerate(rows) if q["project"] != held]
        te = [i for i, q in enumerate(rows) if q["project"] == held]
        model = train([xs[i] for i in tr], [ys[i] for i in tr])
        line = "%-14s" % held
        for name, score in (("learned", lambda i: prob(model, xs[i])), ("rule", lambda i: rule_score(rows[i]))):
            t = threshold_for([score(i) for i in tr], [ys[i] for i in tr])
            k, r, npos, nneg = rates([score(i) for i in te], [ys[i] for i in te], t)
            tot = totals[name]
            tot[0] += k * npos; tot[1] += npos; tot[2] += (r * nneg if nneg else 0); tot[3] += nneg
            if name == "learned":
                line += " %5d %5d |" % (npos, nneg)
            line += " %.3f  %.3f  %.3f       |" % (t, k, r)
        print(line)
    for name, tot in totals.items():
        print("pooled over left-out projects, %-7s: kept %.3f  refused %.3f" % (name, tot[0] / tot[1], tot[2] / tot[3]))
    model = train(xs, ys)
    scores = [prob(model, x) for x in xs]
    t = threshold_for(scores, ys)
    print("\ntrained on every dev question: threshold %.3f for kept >= %.2f" % (t, TARGET_KEPT))
    print("coefficients: " + ", ".join("%s %.4f" % (f, w) for f, w in zip(FEATURES, model[0])) + ", bias %.4f" % model[1])
    print("\ntrade-off on all dev questions (learned | rule):\nthreshold  kept  refused |  kept  refused")
    rule = [rule_score(q) for q in rows]
    for i in range(0, 20):
        th = i / 20
        k, r, _, _ = rates(scores, ys, th)
        k2, r2, _, _ = rates(rule, ys, th)
        print("  %.2f     %.3f  %.3f   | %.3f  %.3f" % (th, k, r, k2, r2))
    if write:
        with open(write, "w", encoding="utf-8") as f:
            f.write("# Written by scripts/eval/train-gate.py from the dev sets' eval --dump; do not edit by hand.\n")
            for name, w in zip(FEATURES, model[0]):
                f.write("%s=%.6f\n" % (name, w))
            f.write("bias=%.6f\nthreshold=%.6f\n" % (model[1], t))
        print("wrote", write)


if __name__ == "__main__":
    main(sys.argv)
