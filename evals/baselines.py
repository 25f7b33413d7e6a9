#!/usr/bin/env python3
"""Simple baselines scored on explore's eval suites, with the file metrics of the harness.

Two rankers answer every case that expects files, from the question text alone:

- ctags: the question's identifier-shaped tokens (backticked words, CamelCase, snake_case,
  dotted names, capitalised words after the first) are looked up, in the order they appear,
  in a universal-ctags index of the repository (exact, case-sensitive names); each
  token's tags add their files in tag order. The first tag's file is rank 1.
- bm25: Okapi BM25 (k1 = 1.2, b = 0.75) over the contents of the repository's source files
  (.go, .py), tokens split on non-alphanumerics and again on camelCase and snake_case
  boundaries, lower-cased; the question is tokenised the same way.

Both index Go and Python only, unless `--all-languages` is given: then BM25 also reads
.ts, .tsx, .js, .rs and .java files and ctags also tags TypeScript, JavaScript, Rust and
Java (for the round 3 suites, evals/heldout3). Without the flag, a repository that holds
no Go or Python source at all (round 7's TypeScript, Rust and JavaScript trees) is indexed
as with the flag, so that its suite does not score zero; a Go or Python tree scores as
before.

Scores, per suite and per kind, are the harness's (docs/evals.md, "Scoring"): Acc@k is 1
when every expected file (`files`) of the case is within rank k; RR is 1 / rank of the
best-ranked expected file (0 when none is returned); MRR is its mean. Hit@1 is the share
of cases whose first file is an expected one (RR = 1): a case expecting two files can
never have Acc@1 but can have Hit@1.

`--engine-report FILE` (the JSON report of `explore eval --format json`) adds the engine's
own Acc@1, Hit@1, Acc@5 and MRR for the same cases, so one table compares all three.

    python3 evals/baselines.py evals/heldout evals/issues [--engine-report R.json] [--json OUT]
    python3 evals/baselines.py evals/heldout3 --all-languages [--engine-report R.json]

Needs Python 3.11 (tomllib) and `ctags` (universal-ctags) on PATH for the ctags ranker.
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import os
import re
import subprocess
import sys
import tomllib

SOURCE_EXTENSIONS = (".go", ".py")
CTAGS_LANGUAGES = "Go,Python"
# With --all-languages: the other languages of the code graph.
ALL_SOURCE_EXTENSIONS = SOURCE_EXTENSIONS + (".ts", ".tsx", ".js", ".rs", ".java")
ALL_CTAGS_LANGUAGES = CTAGS_LANGUAGES + ",TypeScript,JavaScript,Rust,Java"
SKIP_DIRS = {".git", "node_modules", "__pycache__", ".tox", ".venv"}


def find_suites(paths: list[str]) -> list[str]:
    """Suite files under each path: TOML files with a [suite] table or [[case]]s."""
    found = []
    for path in paths:
        if os.path.isfile(path):
            found.append(path)
            continue
        for root, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("target", "fixtures"))
            for name in sorted(files):
                if name.endswith(".toml"):
                    found.append(os.path.join(root, name))
    suites = []
    for path in found:
        with open(path, "rb") as f:
            doc = tomllib.load(f)
        if "suite" in doc or "case" in doc:
            suites.append(path)
    return suites


def expected_files(case: dict) -> list[str]:
    """The case's `files` paths (what Acc@k and RR are computed over)."""
    out = []
    for entry in case.get("files", []):
        path = entry if isinstance(entry, str) else entry["path"]
        out.append(path.removeprefix("./"))
    return out


def source_files(repo: str, extensions: tuple[str, ...] = SOURCE_EXTENSIONS) -> list[str]:
    """Repo-relative paths of the source files BM25 indexes."""
    out = []
    for root, dirs, files in os.walk(repo):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            if name.endswith(extensions):
                full = os.path.join(root, name)
                out.append(os.path.relpath(full, repo).replace(os.sep, "/"))
    return out


WORD = re.compile(r"[A-Za-z0-9]+")
CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def tokenize(text: str) -> list[str]:
    """Lower-cased words, each identifier also split on camelCase boundaries."""
    tokens = []
    for word in WORD.findall(text):
        lower = word.lower()
        tokens.append(lower)
        parts = [p.lower() for p in CAMEL.findall(word)]
        if len(parts) > 1:
            tokens.extend(parts)
    return tokens


class BM25:
    def __init__(self, repo: str, k1: float = 1.2, b: float = 0.75,
                 extensions: tuple[str, ...] = SOURCE_EXTENSIONS):
        self.paths = source_files(repo, extensions)
        self.k1, self.b = k1, b
        self.tf: list[collections.Counter] = []
        self.lengths: list[int] = []
        df: collections.Counter = collections.Counter()
        for path in self.paths:
            with open(os.path.join(repo, path), encoding="utf-8", errors="replace") as f:
                counts = collections.Counter(tokenize(f.read()))
            self.tf.append(counts)
            self.lengths.append(sum(counts.values()))
            df.update(counts.keys())
        n = len(self.paths)
        self.avg = (sum(self.lengths) / n) if n else 0.0
        self.idf = {t: math.log(1 + (n - d + 0.5) / (d + 0.5)) for t, d in df.items()}

    def rank(self, query: str) -> list[str]:
        terms = collections.Counter(tokenize(query))
        scores = []
        for i, counts in enumerate(self.tf):
            score = 0.0
            norm = self.k1 * (1 - self.b + self.b * self.lengths[i] / self.avg) if self.avg else self.k1
            for term, qtf in terms.items():
                tf = counts.get(term)
                if tf:
                    score += qtf * self.idf[term] * tf * (self.k1 + 1) / (tf + norm)
            if score > 0:
                scores.append((-score, self.paths[i]))
        scores.sort()
        return [path for _, path in scores]


class Ctags:
    def __init__(self, repo: str, languages: str = CTAGS_LANGUAGES):
        self.by_name: dict[str, list[str]] = collections.defaultdict(list)
        out = subprocess.run(
            ["ctags", "-R", f"--languages={languages}", "--fields=+n", "-f", "-", "."],
            # A tree may hold files that are not UTF-8 (Sphinx's test roots hold Latin-1).
            cwd=repo, capture_output=True, text=True, encoding="utf-8", errors="replace",
            check=True,
        ).stdout
        # Lines end at "\n" only: a tag's search pattern may hold a form feed or another
        # character that str.splitlines() would also break at (pylint's test data does).
        for line in out.split("\n"):
            if line.startswith("!_TAG_") or "\t" not in line:
                continue
            name, path = line.split("\t", 2)[:2]
            self.by_name[name].append(path.removeprefix("./"))

    def rank(self, query: str) -> list[str]:
        ranked: list[str] = []
        for token in identifier_tokens(query):
            for path in self.by_name.get(token, []):
                if path not in ranked:
                    ranked.append(path)
        return ranked


IDENT = re.compile(r"`([^`]+)`|([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)")


def identifier_tokens(query: str) -> list[str]:
    """Identifier-shaped tokens of the question, in order; dotted names give their parts,
    last part first."""
    tokens = []
    for i, m in enumerate(IDENT.finditer(query)):
        ticked, word = m.group(1), m.group(2)
        text = ticked if ticked is not None else word
        parts = [p for p in re.split(r"[.\s()]+", text) if p]
        if not parts:
            continue
        dotted = len(parts) > 1
        for part in reversed(parts) if dotted else parts:
            shaped = (
                ticked is not None
                or dotted
                or "_" in part
                or re.search(r"[A-Z]", part[1:]) is not None
                or (part[0].isupper() and i > 0)
            )
            if shaped and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", part) and part not in tokens:
                tokens.append(part)
    return tokens


def score(ranked: list[str], expected: list[str]) -> dict:
    ranks = [ranked.index(p) + 1 if p in ranked else None for p in expected]
    found = [r for r in ranks if r is not None]
    return {
        "hit1": bool(found) and min(found) == 1,
        "acc1": all(r is not None and r <= 1 for r in ranks),
        "acc5": all(r is not None and r <= 5 for r in ranks),
        "rr": (1 / min(found)) if found else 0.0,
        "ranks": ranks,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", help="suite files or directories")
    parser.add_argument("--json", help="write every case's ranks and scores there")
    parser.add_argument("--engine-report", action="append", default=[],
                        help="explore eval --format json report(s) to compare with")
    parser.add_argument("--all-languages", action="store_true",
                        help="index TypeScript, JavaScript, Rust and Java too (default: Go, Python)")
    args = parser.parse_args()
    all_languages = {"ctags": lambda repo: Ctags(repo, ALL_CTAGS_LANGUAGES),
                     "bm25": lambda repo: BM25(repo, extensions=ALL_SOURCE_EXTENSIONS)}
    if args.all_languages:
        make = all_languages
    else:
        # A tree with no Go or Python source (TypeScript, Rust, JavaScript) is indexed in all
        # languages; every other tree as before.
        def pick(kind, default):
            return lambda repo: (default(repo) if source_files(repo)
                                 else all_languages[kind](repo))
        make = {"ctags": pick("ctags", Ctags), "bm25": pick("bm25", BM25)}

    engine: dict[str, dict] = {}
    for report in args.engine_report:
        with open(report) as f:
            for suite in json.load(f)["suites"]:
                for case in suite["cases"]:
                    if case["acc_at_1"] is None:
                        continue
                    engine[case["id"]] = {
                        "hit1": case["reciprocal_rank"] == 1.0,
                        "acc1": bool(case["acc_at_1"]),
                        "acc5": bool(case["acc_at_5"]),
                        "rr": case["reciprocal_rank"],
                    }
    rankers_used = (("engine",) if engine else ()) + ("ctags", "bm25")

    rankers: dict[tuple[str, str], object] = {}
    rows = []
    for suite_path in find_suites(args.paths):
        with open(suite_path, "rb") as f:
            doc = tomllib.load(f)
        meta = doc.get("suite", {})
        name = meta.get("name", os.path.splitext(os.path.basename(suite_path))[0])
        base = os.path.dirname(suite_path)
        for case in doc.get("case", []):
            expected = expected_files(case)
            if not expected:
                continue
            repo = os.path.normpath(os.path.join(base, case.get("repo", meta.get("repo", "."))))
            if not os.path.isdir(repo):
                print(f"skip {name}/{case['id']}: {repo} is missing", file=sys.stderr)
                continue
            row = {"suite": name, "id": case["id"], "kind": case["kind"], "expected": expected}
            if engine:
                if case["id"] not in engine:
                    print(f"skip {name}/{case['id']}: not in the engine report", file=sys.stderr)
                    continue
                row["engine"] = engine[case["id"]]
            for kind in ("ctags", "bm25"):
                if (kind, repo) not in rankers:
                    rankers[(kind, repo)] = make[kind](repo)
                ranked = rankers[(kind, repo)].rank(case["query"])
                row[kind] = score(ranked, expected) | {"top": ranked[:5]}
            rows.append(row)

    def table(group_key: str) -> None:
        groups: dict[str, list[dict]] = collections.defaultdict(list)
        for row in rows:
            groups[row[group_key]].append(row)
        groups["all"] = rows
        names = {"engine": "engine", "ctags": "ctags", "bm25": "BM25"}
        head = [f"{names[r]} {m}" for r in rankers_used for m in ("Acc@1", "Hit@1", "Acc@5", "MRR")]
        print(f"| {group_key} | cases | " + " | ".join(head) + " |")
        print("| --- | --- |" + " --- |" * len(head))
        for key, group in groups.items():
            n = len(group)
            cells = []
            for kind in rankers_used:
                for metric in ("acc1", "hit1", "acc5"):
                    cells.append(f"{sum(r[kind][metric] for r in group) / n:.1%}")
                cells.append(f"{sum(r[kind]['rr'] for r in group) / n:.3f}")
            label = f"**{key}**" if key == "all" else key
            print(f"| {label} | {n} | " + " | ".join(cells) + " |")
        print()

    table("suite")
    table("kind")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
