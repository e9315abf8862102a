#!/usr/bin/env python3
"""Replays the verdicts of bench/realcode/verdicts.tsv against warplint now.

Every finding of the development corpus that a person has judged is a row of
verdicts.tsv (tab-separated, one header line):

    project  file  line  check  verdict  evidence

project is a name of corpus.tsv, file is relative to the project's root (a
header included by a linted file is fine), verdict is true (the code has the
bug or cost the check describes), false (it does not) or not-worth-it (right
but not worth a change), and evidence is one line: why, in the code's terms.

This re-lints the files that can hold the judged findings (the project's
listed files whose path is a verdict's file, or all its listed files when a
verdict names a header) as lint_corpus.py does, or reads a lint_corpus.py
output given with --results, and prints per check:

    true kept     true verdicts still reported, of all true verdicts
    false back    false verdicts reported again (a false positive returned)
    nww reported  not-worth-it verdicts still reported

and then each verdict that no longer matches a finding (matched on project,
file, line and check). Exit status 1 when a true finding is lost or a false
one comes back, else 0; with no verdicts it prints zeros and exits 0.

    python3 bench/realcode/replay.py --root ROOT
    python3 bench/realcode/replay.py --results tune.jsonl
"""

import argparse
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lint_corpus  # noqa: E402

VERDICTS = os.path.join(lint_corpus.HERE, "verdicts.tsv")
VERDICT_COLUMNS = ["project", "file", "line", "check", "verdict", "evidence"]
KINDS = ("true", "false", "not-worth-it")


def read_verdicts(path=VERDICTS):
    """The rows of verdicts.tsv as dicts, line as int; a malformed row stops."""
    out = []
    for n, cells in lint_corpus.tsv_rows(path, VERDICT_COLUMNS):
        if len(cells) < 5:
            raise SystemExit(f"{path}:{n}: expected {len(VERDICT_COLUMNS)} columns")
        v = dict(zip(VERDICT_COLUMNS, cells + [""] * (6 - len(cells))))
        if v["verdict"] not in KINDS:
            raise SystemExit(f"{path}:{n}: verdict must be one of {', '.join(KINDS)}")
        v["line"] = int(v["line"])
        out.append(v)
    return out


def findings_from_results(path):
    """The findings of a lint_corpus.py output."""
    with open(path, encoding="utf-8") as f:
        return [d for d in map(json.loads, f) if d.get("type") == "finding"]


def findings_by_linting(verdicts, args):
    """Lints, per project with a verdict, the files that can hold them."""
    rows = {r["name"]: r for r in lint_corpus.read_corpus(args.corpus)}
    wanted = collections.defaultdict(set)
    for v in verdicts:
        if v["project"] not in rows:
            raise SystemExit(f"verdict for unknown project {v['project']}")
        wanted[v["project"]].add(v["file"])
    findings = []
    for name, files in sorted(wanted.items()):
        row = dict(rows[name])
        listed = lint_corpus.expand_files(os.path.join(args.root, name), row["files"],
                                          args.max_files)
        direct = [f for f in listed if f in files]
        if len(direct) < len(files):  # a header, or a file no longer listed
            direct = listed
        row["files"] = ";".join(direct)
        got, summary = lint_corpus.lint_project(row, os.path.abspath(args.root), args.warplint,
                                                args.arch, args.timeout, len(direct))
        for fail in summary["failures"]:
            print(f"{name}/{fail['file']}: {fail['status']}: {fail['error']}", file=sys.stderr)
        findings += got
    return findings


def replay(verdicts, findings):
    """Per-check counts and the verdicts left without a finding.
    Returns (table, unmatched, failed)."""
    reported = {(f["project"], f["file"], f["line"], f["check"]) for f in findings}
    table = collections.defaultdict(collections.Counter)
    unmatched = []
    failed = False
    for v in verdicts:
        hit = (v["project"], v["file"], v["line"], v["check"]) in reported
        t = table[v["check"]]
        t[v["verdict"]] += 1
        if hit:
            t[v["verdict"] + "-reported"] += 1
        else:
            unmatched.append(v)
        if (v["verdict"] == "true" and not hit) or (v["verdict"] == "false" and hit):
            failed = True
    return table, unmatched, failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", help="directory holding the projects as ROOT/<name>")
    ap.add_argument("--results", help="a lint_corpus.py output to read instead of linting")
    ap.add_argument("--verdicts", default=VERDICTS)
    ap.add_argument("--corpus", default=lint_corpus.CORPUS)
    ap.add_argument("--warplint", default=os.path.join(lint_corpus.ROOT, "build/bin/warplint"))
    ap.add_argument("--arch", default="sm_80")
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--max-files", type=int, default=20)
    args = ap.parse_args()

    verdicts = read_verdicts(args.verdicts)
    if args.results:
        findings = findings_from_results(args.results)
    elif verdicts:
        if not args.root:
            ap.error("--root (or --results) is needed to replay verdicts")
        findings = findings_by_linting(verdicts, args)
    else:
        findings = []
    table, unmatched, failed = replay(verdicts, findings)

    print(f"{'check':32} {'true kept':>10} {'false back':>10} {'nww reported':>12}")
    total = collections.Counter()
    for check in sorted(table):
        t = table[check]
        total.update(t)
        print(f"{check:32} {t['true-reported']:>4} of {t['true']:<3}"
              f" {t['false-reported']:>4} of {t['false']:<3}"
              f" {t['not-worth-it-reported']:>6} of {t['not-worth-it']:<3}")
    print(f"{'total':32} {total['true-reported']:>4} of {total['true']:<3}"
          f" {total['false-reported']:>4} of {total['false']:<3}"
          f" {total['not-worth-it-reported']:>6} of {total['not-worth-it']:<3}")
    if unmatched:
        print("verdicts no longer matching a finding:")
        for v in unmatched:
            what = {"true": "LOST", "false": "gone (good)", "not-worth-it": "gone"}[v["verdict"]]
            print(f"  {v['project']}/{v['file']}:{v['line']} {v['check']} ({v['verdict']}): {what}")
    returned = [v for v in verdicts if v["verdict"] == "false" and v not in unmatched]
    if returned:
        print("false findings reported again:")
        for v in returned:
            print(f"  {v['project']}/{v['file']}:{v['line']} {v['check']}: {v['evidence']}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
