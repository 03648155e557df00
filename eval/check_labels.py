#!/usr/bin/env python3
"""Check the labels of the ragsearch evaluation question sets.

For every question in the YAML files given on the command line (default: all
*.yaml files next to this script) it checks that

  * the id is unique and its prefix matches the kind (kw/pa/de/ty/sp/mx/un);
  * answerable questions have at least one expect entry and no `refused`;
  * unanswerable questions have `refused: true` and no expect entries;
  * every expect entry names an existing document and an article label that
    exists in that document exactly as its heading writes it, and whose body
    is neither empty nor only "삭제" / "[Deleted]".

It prints each question with the title of every expected article so that
question and article can be reread side by side.  With --body the article
bodies of detail questions are printed too (to check that the asked number,
deadline, person or condition is really stated in the body).

Corpus layout (read only):
  project statutes    -> /work/shared/corpus/ko-statutes/<document>.md
  project handbook-en -> /work/main/examples/corpus/en/<document>.md
  project agency      -> eval/corpora/agency-ko/<document>.md (next to this script)
  project policies-en -> eval/corpora/policies-en/<document>.md (next to this script)
  project benefits-en -> eval/corpora/benefits-en/<document>.md (next to this script)
  project handbook-ko -> eval/corpora/handbook-ko/<document>.md (next to this script)
  project university-ko -> eval/corpora/university-ko/<document>.md (next to this script)

Korean articles (statutes, handbook-ko, university-ko) are headed '##### 제N조 (제목)' or '##### 제N조의M (제목)';
the addenda ('## 부칙' and everything after it) are ignored.  English
documents use '### Article N (Title)' headings (label 'Article N') or plain
Markdown headings (label = heading text).  The agency rule books are plain
text: the first line is the title, each article starts a line with
'제N조(제목) ...' or '제N조의M(제목) ...' (the body may go on on the same
line), a deleted article is written '제N조 삭제 <date>', and the addenda
start at a line beginning with '부칙'.  A label that heads two articles of one
document is reported.

Exit status is 1 if any problem was found.
"""
import argparse
import collections
import glob
import os
import re
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
CORPORA = {
    "statutes": "/work/shared/corpus/ko-statutes",
    "handbook-en": "/work/main/examples/corpus/en",
    "agency": os.path.join(HERE, "corpora", "agency-ko"),
    "policies-en": os.path.join(HERE, "corpora", "policies-en"),
    "benefits-en": os.path.join(HERE, "corpora", "benefits-en"),
    "handbook-ko": os.path.join(HERE, "corpora", "handbook-ko"),
    "university-ko": os.path.join(HERE, "corpora", "university-ko"),
}
# projects whose Markdown documents head articles '##### 제N조 (제목)'
KO_HEADED = {"statutes", "handbook-ko", "university-ko"}
KIND_PREFIX = {"keyword": "kw", "paraphrase": "pa", "detail": "de", "typo": "ty",
               "spacing": "sp", "mixed": "mx", "unanswerable": "un"}
# Held-out sets whose expected articles must not be targeted by any other set of the
# same project (and whose queries must not appear in another set).
DISJOINT_SETS = {"ko-statutes-holdout2", "handbook-en-holdout", "policies-en-holdout",
                 "benefits-en-holdout", "handbook-ko-holdout",
                 "university-ko-holdout", "ko-statutes-holdout3", "agency-ko-holdout2"}
BASE_KINDS = ("keyword", "paraphrase", "detail", "unanswerable")
# projects whose every document should be used by a set; dev/holdout pairs checked for overlap
ALL_DOCS_PROJECTS = {"statutes", "agency", "benefits-en", "handbook-ko", "university-ko"}
# (dev set, held-out set, whether an article expected by both is a problem)
DEV_HOLDOUT_PAIRS = [("ko-statutes-dev", "ko-statutes-holdout", False),
                     ("agency-ko-dev", "agency-ko-holdout", True)]

KO_HEAD = re.compile(r"^#####\s+(제\d+조(?:의\d+)?)\s*(?:\((.*)\))?\s*$")
EN_ARTICLE = re.compile(r"^(Article\s+\d+)\s*(?:\((.*)\))?\s*$")
MD_HEAD = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
PLAIN_HEAD = re.compile(r"^(제\d+조(?:의\d+)?)(?:\s*\(([^()]*)\)\s*(.*)|\s+(삭제.*))$")
DELETED = re.compile(r"^\s*(삭제\s*(<[^>]*>)?|\[?deleted\]?)\s*$", re.IGNORECASE)


def parse_document(path, project):
    """Return {label: {'title': str, 'body': str}} for one corpus file."""
    articles = {}
    current = None
    in_front_matter = False
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    if project == "agency":
        return parse_plain(lines)
    for i, line in enumerate(lines):
        if i == 0 and line.strip() == "---":
            in_front_matter = True
            continue
        if in_front_matter:
            if line.strip() == "---":
                in_front_matter = False
            continue
        if project in KO_HEADED:
            if line.startswith("## 부칙"):
                break
            m = KO_HEAD.match(line)
            if m:
                current = m.group(1)
                articles[current] = {"title": m.group(2) or "", "body": []}
                continue
            if line.startswith("#"):
                current = None
                continue
        else:
            m = MD_HEAD.match(line)
            if m:
                text = m.group(2)
                am = EN_ARTICLE.match(text)
                if am:
                    label, title = am.group(1), am.group(2) or ""
                else:
                    label, title = text, text
                current = label
                articles[current] = {"title": title, "body": []}
                continue
        if current is not None and line.strip():
            articles[current]["body"].append(line.strip())
    for art in articles.values():
        art["body"] = "\n".join(art["body"])
    return articles


def parse_plain(lines):
    """Plain-text rule book: title line, '제N조(제목) body' lines, '부칙' addenda."""
    articles = {}
    duplicates = []
    current = None
    for line in lines[1:]:
        if line.startswith("부칙"):
            break
        m = PLAIN_HEAD.match(line)
        if m:
            current = m.group(1)
            if current in articles:
                duplicates.append(current)
            rest = m.group(3) if m.group(4) is None else m.group(4)
            articles[current] = {"title": m.group(2) or "", "body": [rest.strip()] if rest and rest.strip() else []}
            continue
        if current is not None and line.strip():
            articles[current]["body"].append(line.strip())
    for art in articles.values():
        art["body"] = "\n".join(art["body"])
    if duplicates:
        articles["__duplicates__"] = {"title": "", "body": ", ".join(duplicates)}
    return articles


_cache = {}


def load(project, document):
    key = (project, document)
    if key not in _cache:
        path = os.path.join(CORPORA[project], document + ".md")
        _cache[key] = parse_document(path, project) if os.path.isfile(path) else None
    return _cache[key]


def check_file(path, show_body):
    problems = []
    with open(path, encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    name = os.path.basename(path)
    project = data.get("project")
    if project not in CORPORA:
        return [f"{name}: unknown project {project!r}"], None
    print(f"=== {name}  set={data.get('set')}  project={project}")
    seen = set()
    counts = collections.Counter()
    docs_main = collections.Counter()
    docs_any = set()
    labels = []
    for q in data.get("questions") or []:
        qid, kind, query = q.get("id"), q.get("kind"), q.get("query")
        where = f"{name}:{qid}"
        if qid in seen:
            problems.append(f"{where}: duplicate id")
        seen.add(qid)
        if kind not in KIND_PREFIX:
            problems.append(f"{where}: unknown kind {kind!r}")
            continue
        if not str(qid).startswith(KIND_PREFIX[kind] + "-"):
            problems.append(f"{where}: id prefix does not match kind {kind}")
        if not query or not str(query).strip():
            problems.append(f"{where}: empty query")
        counts[kind] += 1
        expect = q.get("expect") or []
        print(f"[{qid}] ({kind}) {query}")
        if kind == "unanswerable":
            if q.get("refused") is not True:
                problems.append(f"{where}: unanswerable question without refused: true")
            if expect:
                problems.append(f"{where}: unanswerable question has expect entries")
            continue
        if q.get("refused"):
            problems.append(f"{where}: answerable question marked refused")
        if not expect:
            problems.append(f"{where}: answerable question without expect")
        for n, e in enumerate(expect):
            doc, art = e.get("document"), e.get("article")
            arts = load(project, doc)
            if arts is None:
                problems.append(f"{where}: document not found: {doc!r}")
                print(f"      !! {doc} / {art}: DOCUMENT NOT FOUND")
                continue
            if art not in arts:
                problems.append(f"{where}: {doc} has no article headed {art!r}")
                print(f"      !! {doc} / {art}: NO SUCH HEADING")
                continue
            body = arts[art]["body"]
            if not body.strip():
                problems.append(f"{where}: {doc} {art} has an empty body")
            elif DELETED.match(body):
                problems.append(f"{where}: {doc} {art} is deleted ({body!r})")
            mark = "->" if n == 0 else " +"
            print(f"   {mark} {doc} {art} ({arts[art]['title']})")
            if n == 0:
                docs_main[doc] += 1
            docs_any.add(doc)
            labels.append((doc, art))
            if show_body and kind == "detail":
                for bl in body.split("\n"):
                    print(f"         | {bl}")
    # search checks of a verify checks file (docs/verify.md): their labels count as targeted
    # for the disjointness check below (not validated here; a check may name another project)
    for c in data.get("checks") or []:
        if c.get("kind") == "search" and (c.get("project") or project) == project:
            for e in c.get("expect") or []:
                labels.append((str(e.get("document")), str(e.get("article"))))
    print(f"--- {name}: " + ", ".join(f"{k}={counts[k]}" for k in KIND_PREFIX
                                         if counts[k] or k in BASE_KINDS))
    print(f"--- {name}: documents as main answer: {len(docs_main)}; "
          f"documents in any expect entry: {len(docs_any)}")
    for doc, n in sorted(docs_main.items(), key=lambda x: -x[1]):
        print(f"      {n:3d}  {doc}")
    if project in ALL_DOCS_PROJECTS:
        for d in sorted(glob.glob(CORPORA[project] + "/*.md")):
            arts = load(project, os.path.basename(d)[:-3])
            if arts and "__duplicates__" in arts:
                problems.append(f"{os.path.basename(d)}: label heads two articles: "
                                f"{arts['__duplicates__']['body']}")
        all_docs = {os.path.basename(p)[:-3] for p in glob.glob(CORPORA[project] + "/*.md")}
        missing = sorted(all_docs - docs_any)
        if missing:
            print(f"--- {name}: documents not used: {', '.join(missing)}")
    print()
    return problems, {"set": data.get("set"), "project": project, "labels": labels,
                      "queries": [q.get("query") for q in data.get("questions") or []]}


def check_separation(dev, hold, strict):
    """Identical queries are always a problem; shared articles only if strict."""
    problems = []
    if not (dev and hold):
        return problems
    same_q = set(dev["queries"]) & set(hold["queries"])
    for q in sorted(same_q):
        problems.append(f"query appears in both dev and holdout: {q}")
    shared = sorted(set(dev["labels"]) & set(hold["labels"]))
    print(f"=== {dev['set']}/{hold['set']}: {len(same_q)} identical queries; "
          f"{len(shared)} expected articles shared")
    for doc, art in shared:
        print(f"      shared: {doc} {art}")
        if strict:
            problems.append(f"article expected in both {dev['set']} and {hold['set']}: {doc} {art}")
    print()
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--body", action="store_true",
                    help="print the article body under each detail question")
    args = ap.parse_args()
    files = args.files or sorted(glob.glob(os.path.join(HERE, "*.yaml")))
    problems, infos = [], []
    for f in files:
        p, info = check_file(f, args.body)
        problems += p
        if info:
            infos.append(info)
    # dev / holdout separation
    by_set = {i["set"]: i for i in infos}
    for dev_name, hold_name, strict in DEV_HOLDOUT_PAIRS:
        problems += check_separation(by_set.get(dev_name), by_set.get(hold_name), strict)
    # held-out sets that must share no article and no query with any other set
    for held in infos:
        if held["set"] not in DISJOINT_SETS:
            continue
        others = [i for i in infos if i is not held and i["project"] == held["project"]]
        other_labels = {l for i in others for l in i["labels"]}
        other_queries = {q for i in others for q in i["queries"]}
        shared = sorted(set(held["labels"]) & other_labels)
        same_q = sorted(set(held["queries"]) & other_queries)
        print(f"=== {held['set']} vs the other {held['project']} sets "
              f"({', '.join(i['set'] for i in others) or 'none'}): "
              f"{len(shared)} expected articles shared, {len(same_q)} identical queries")
        for doc, art in shared:
            problems.append(f"{held['set']}: {doc} {art} is also targeted by another set")
        for q in same_q:
            problems.append(f"{held['set']}: query also in another set: {q}")
        print()
    if problems:
        print("PROBLEMS:")
        for p in problems:
            print("  - " + p)
        return 1
    print("OK: no problems found")
    return 0


if __name__ == "__main__":
    sys.exit(main())
