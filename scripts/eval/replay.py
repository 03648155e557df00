#!/usr/bin/env python3
"""Replays the served ranking and gate from `ragsearch eval --dump` lines (issue 31).

The dump holds both legs of every question, each candidate's coverage, cosine and whether it is
a target, and the plain BM25 order. From them this script recomputes what the server does
(ScoreFusion: each leg scaled to [0, 1], lexical weight 0.3, the fused top 32, each leg's first
kept in the top two; RelevanceGate: open when a candidate's coverage reaches 0.5 or its cosine
reaches the language's midpoint), so that a ranking or a midpoint can be compared without
running the sets again. On the dev dump of main it gives the eval's own figures, set by set.

    python3 scripts/eval/replay.py served DUMP [--midpoints KO,EN] [--gate-cosines OTHER_DUMP]
    python3 scripts/eval/replay.py open DUMP...        # gate open: the ranking alone, beside plain RRF
    python3 scripts/eval/replay.py sweep DUMP          # kept / refused per set for midpoints 0.815-0.895

--gate-cosines reads the gate's cosines from another dump of the same questions (for a variant
whose vectors moved the cosine scale: the gate as it was, the ranking of the variant). Dump dev
sets only: a held-out set dumped is a held-out set read.
"""
import collections
import json
import sys

LEXICAL_WEIGHT = 0.3   # ScoreFusion.LEXICAL_WEIGHT
CANDIDATES = 32        # SearchLimits.DEFAULTS.candidates
LEADER_PLACE = 2       # ScoreFusion.LEADER_PLACE
RRF_K = 60             # the plain hybrid baseline (FusionBaseline)
MIDPOINTS = {"KOREAN": 0.845, "ENGLISH": 0.825}  # CosineEvidence.E5, E5_ENGLISH


def scaled(value, low, high):
    if not high > low:
        return 1.0 if value >= high else 0.0
    return max(0.0, min(1.0, (value - low) / (high - low)))


def served_order(q):
    """ScoreFusion.fuse then keepLegLeaders, as SearchService calls them."""
    lex, vec, cand = q["lex"], q["vec"], q["candidates"]
    scores = {}
    if lex:
        lo, hi = min(s for _, s in lex), max(s for _, s in lex)
        for p, s in lex:
            scores[p] = scores.get(p, 0.0) + LEXICAL_WEIGHT * scaled(s, lo, hi)
    every = list(scores) + [p for p, _ in vec if p not in scores]
    if vec:
        lo, hi = min(s for _, s in vec), max(s for _, s in vec)
    for p in every:
        v = scaled(cand[str(p)][1], lo, hi) if vec else 0.0
        scores[p] = scores.get(p, 0.0) + (1 - LEXICAL_WEIGHT) * v
    order = sorted(scores, key=lambda p: -scores[p])[:CANDIDATES]
    for leg in (lex, vec):
        if leg and leg[0][0] in order[LEADER_PLACE:]:
            order.remove(leg[0][0])
            order.insert(LEADER_PLACE - 1, leg[0][0])
    return order


def plain_rrf_order(q):
    """Plain BM25 and the vector leg by reciprocal-rank fusion (the dump's BM25 list is 100 deep; the leg 50)."""
    s = collections.defaultdict(float)
    for i, p in enumerate(q["bm25"][:50]):
        s[p] += 1 / (RRF_K + i + 1)
    for i, (p, _) in enumerate(q["vec"]):
        s[p] += 1 / (RRF_K + i + 1)
    return sorted(s, key=lambda p: -s[p])


def first_target(q, order):
    cand = q["candidates"]
    return next((i + 1 for i, p in enumerate(order[:10]) if str(p) in cand and cand[str(p)][2] == 1), None)


def gate_opens(q, order, midpoints, gate_candidates=None):
    cand = q["candidates"]
    cosines = gate_candidates if gate_candidates is not None else cand
    coverage = max((cand[str(p)][0] for p in order), default=0.0)
    cosine = max((cosines[str(p)][1] for p in order if str(p) in cosines), default=0.0)
    return coverage >= 0.5 or cosine >= midpoints[q["language"]]


def read(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def share(xs):
    return "%.3f" % (sum(xs) / len(xs)) if xs else "—"


def served(path, midpoints, gate_path=None):
    other = {(q["set"], q["id"]): q["candidates"] for q in read(gate_path)} if gate_path else {}
    sets = collections.defaultdict(lambda: collections.defaultdict(list))
    pooled = []
    for q in read(path):
        order = served_order(q)
        opens = gate_opens(q, order, midpoints, other.get((q["set"], q["id"])) if gate_path else None)
        s = sets[q["set"]]
        if q["refused"]:
            s["refused"].append(0 if opens else 1)
            continue
        rank = first_target(q, order) if opens else None
        hit5, rr = (1 if rank and rank <= 5 else 0), (1 / rank if rank else 0.0)
        for key in ("", q["kind"] + "."):
            s[key + "hit5"].append(hit5)
            s[key + "mrr"].append(rr)
        s["kept"].append(1 if opens else 0)
        pooled.append((hit5, rr))
    print("set                    hit5  MRR@10 paraphrase hit5/MRR kept  refused")
    for name, s in sets.items():
        print("%-22s %5s %6s %8s / %-8s %5s %5s" % (name, share(s["hit5"]), share(s["mrr"]), share(s["paraphrase.hit5"]),
                                                  share(s["paraphrase.mrr"]), share(s["kept"]), share(s["refused"])))
    print("pooled answerable (%d): hit5 %s MRR@10 %s" % (len(pooled), share([h for h, _ in pooled]), share([r for _, r in pooled])))


def gate_open(paths):
    for path in paths:
        cells = {"served": collections.defaultdict(list), "rrf": collections.defaultdict(list)}
        for q in read(path):
            if q["refused"]:
                continue
            for name, order in (("served", served_order(q)), ("rrf", plain_rrf_order(q))):
                rank = first_target(q, order)
                cells[name][(q["set"], q["kind"])].append((1 if rank and rank <= 5 else 0, 1 / rank if rank else 0.0))
        line = []
        for name in ("served", "rrf"):
            every = [x for v in cells[name].values() for x in v]
            line.append("%s hit5 %s MRR@10 %s" % (name, share([h for h, _ in every]), share([r for _, r in every])))
        below = [(k, m) for k, v in cells["served"].items() for m in (0, 1)
                 if sum(x[m] for x in v) < sum(x[m] for x in cells["rrf"][k]) - 1e-9]
        print("%s: %s; set x kind cells below RRF (hit5 or MRR): %d" % (path, " | ".join(line), len(below)))
        for (s, kind), m in sorted(below):
            print("    %s %s %s" % (s, kind, ("hit5", "MRR@10")[m]))


def sweep(path):
    questions = read(path)
    for language in ("KOREAN", "ENGLISH"):
        names = sorted({q["set"] for q in questions if q["language"] == language})
        print(language, " ".join(names))
        for step in range(17):
            midpoint = 0.815 + 0.005 * step
            row = []
            for name in names:
                kept, refused = [], []
                for q in questions:
                    if q["set"] == name:
                        opens = gate_opens(q, served_order(q), {language: midpoint})
                        (refused if q["refused"] else kept).append((0 if opens else 1) if q["refused"] else (1 if opens else 0))
                row.append("%s/%s" % (share(kept), share(refused)))
            print("  %.3f %s" % (midpoint, " ".join(row)))


def main(argv):
    if len(argv) < 2 or argv[0] not in ("served", "open", "sweep"):
        sys.exit(__doc__)
    if argv[0] == "open":
        gate_open(argv[1:])
    elif argv[0] == "sweep":
        sweep(argv[1])
    else:
        midpoints, gate_path = dict(MIDPOINTS), None
        rest = argv[2:]
        while rest:
            if rest[0] == "--midpoints" and len(rest) > 1:
                ko, en = (float(x) for x in rest[1].split(","))
                midpoints = {"KOREAN": ko, "ENGLISH": en}
            elif rest[0] == "--gate-cosines" and len(rest) > 1:
                gate_path = rest[1]
            else:
                sys.exit("unknown option %s\n%s" % (rest[0], __doc__))
            rest = rest[2:]
        served(argv[1], midpoints, gate_path)


if __name__ == "__main__":
    main(sys.argv[1:])
