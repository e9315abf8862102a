#!/usr/bin/env python3
"""What a lint costs as CI pays it: cold runs against one device-only parse.

For each file of a corpus (bench/speed-corpus.txt, as bench/speed_table.py
reads it), in CPU seconds of the process and of every child it waited for
(launch-occupancy's ptxas, or nvcc with --registers-from=nvcc), fastest
of --runs runs:

  dev   clang++-22 -x cuda --cuda-device-only -fsyntax-only, same flags
  cold  warplint, every check, one target, fresh cache directories per
        run (no ptxas answer, an empty result cache, --cache-dir): a CI
        job's first lint
  hit   again with the result cache the cold run filled: a lint of an
        unchanged file

and, with --variants, cold runs of `--ptxas=false` and of `--ptxas=false
--ir-layer=false`; with --targets, a cold run for several targets at once,
against the cold run of one, with the parses it took (--print-parses) and
what the parses beyond the first cost alone. Prints each file's ratios to
dev, then the median, p90, worst and total (the sum of a column over the
sum of dev) of each ratio, and the slowest files.

    python3 bench/cold.py [--ext DIR] [--runs 1] [--variants]
        [--targets sm_75,sm_80,sm_90] [--extra ARGS] [--cold-only]
        [--corpus bench/speed-corpus.txt] [--markdown out.md]
"""
import argparse
import os
import re
import shlex
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from speed_table import ROOT, clang_flags, corpus, run_once  # noqa: E402


def cpu_best(cmd, runs, env_of, ok=(0, 1), stderr=None):
    """Fastest CPU seconds of runs, each with the environment env_of()
    gives it (a fresh cache directory for a cold run). With stderr (a
    list), the last run's standard error is appended to it."""
    out = None
    for _ in range(runs):
        env, done = env_of()
        try:
            t, _, rc = run_once(cmd, True, env, stderr)
        finally:
            done()
        if rc not in ok:
            raise RuntimeError(f"exit {rc}: {' '.join(map(str, cmd))}")
        out = t if out is None else min(out, t)
    return out


def parses(printed, targets):
    """How many device parses --print-parses says a file took."""
    m = re.search(r": (\d+) parses \(", printed)
    if m:
        return int(m.group(1))
    if "a parse per target" in printed:
        return len(targets.split(","))
    return 1


def fresh_cache():
    """An environment whose cache directories (warplint's own, for the
    ptxas answers, and the result cache) are new, and its clean-up."""
    d = tempfile.mkdtemp(prefix="warplint-cold-")
    env = dict(os.environ, XDG_CACHE_HOME=d,
               WARPLINT_CACHE_DIR=os.path.join(d, "results"))
    return env, lambda: shutil.rmtree(d, ignore_errors=True)


def percentile(values, p):
    """The nearest-rank p-th percentile."""
    s = sorted(values)
    k = max(0, min(len(s) - 1, int(-(-p * len(s) // 100)) - 1))
    return s[k]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=str(ROOT / "bench/speed-corpus.txt"))
    ap.add_argument("--ext", default=str(ROOT.parent / "ext"))
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--arch", default="sm_80")
    ap.add_argument("--cuda-path", default="/usr/local/cuda")
    ap.add_argument("--warplint", default=str(ROOT / "build/bin/warplint"))
    ap.add_argument("--clang", default="clang++-22")
    ap.add_argument("--variants", action="store_true",
                    help="also --ptxas=false, and with --ir-layer=false")
    ap.add_argument("--extra", default="",
                    help="more warplint arguments for every run, "
                    "e.g. '--registers-from=nvcc'")
    ap.add_argument("--cold-only", action="store_true",
                    help="no cache-hit column")
    ap.add_argument("--targets", default="",
                    help="also a cold run for these targets at once (e.g. "
                    "sm_75,sm_80,sm_90), against the cold run of --arch")
    ap.add_argument("--slowest", type=int, default=5)
    ap.add_argument("--markdown", help="also write the summary here")
    args = ap.parse_args()

    cuda = args.cuda_path
    common = clang_flags(cuda, args.arch)
    columns = ["cold"] if args.cold_only else ["cold", "hit"]
    variants = {}
    if args.variants:
        variants["no ptxas"] = ["--ptxas=false"]
        variants["no ptxas, no IR"] = ["--ptxas=false", "--ir-layer=false"]
        columns += ["no ptxas", "no ptxas, no IR"]

    rows = []
    for f, flags in corpus(args):
        dev = cpu_best([args.clang, "-x", "cuda", "--cuda-device-only",
                        "-fsyntax-only"] + common + flags + [str(f)],
                       args.runs, lambda: (None, lambda: None))
        lint = [args.warplint, "--quiet", "-j", "1", "--arch=" + args.arch,
                "--cuda-path=" + cuda] + shlex.split(args.extra)
        tail = [str(f), "--"] + flags
        row = {"file": str(f.relative_to(ROOT)) if ROOT in f.parents
               else str(f), "dev": dev}
        try:
            row["cold"] = cpu_best(lint + tail, args.runs, fresh_cache)
            # The caches of one untimed cold run, kept for the other runs.
            if "hit" in columns:
                env, done = fresh_cache()
                try:
                    run_once(lint + tail, True, env)
                    row["hit"] = cpu_best(lint + tail, args.runs,
                                          lambda: (env, lambda: None))
                finally:
                    done()
            if args.targets:
                multi = [a if not a.startswith("--arch=") else
                         "--arch=" + args.targets for a in lint]
                printed = []
                row["targets"] = cpu_best(multi + ["--print-parses"] + tail,
                                          args.runs, fresh_cache,
                                          stderr=printed)
                row["parses"] = parses(printed[-1], args.targets)
            for name, extra in variants.items():
                row[name] = cpu_best(lint + extra + tail, args.runs,
                                     fresh_cache)
        except RuntimeError as e:
            print(f"skipped {f}: {e}", file=sys.stderr)
            continue
        rows.append(row)
        print(f"{row['file'][-60:]:60} dev {dev:6.2f}s  " +
              "  ".join(f"{c} {row[c] / dev:5.2f}x" for c in columns) +
              (f"  targets/cold {row['targets'] / row['cold']:5.2f}x"
               f"  parses {row['parses']}" if args.targets else ""),
              flush=True)
    if not rows:
        return 1

    lines = [f"{len(rows)} files, CPU seconds of warplint and its children "
             f"over one device-only parse ({args.arch}, fastest of "
             f"{args.runs}):", "",
             "| | median | p90 | worst | total |", "|---|---|---|---|---|"]
    for c in columns:
        r = [row[c] / row["dev"] for row in rows]
        total = sum(row[c] for row in rows) / sum(row["dev"] for row in rows)
        lines.append(f"| {c} | {statistics.median(r):.2f}x | "
                     f"{percentile(r, 90):.2f}x | {max(r):.2f}x | "
                     f"{total:.2f}x |")
    if args.targets:
        r = [row["targets"] / row["cold"] for row in rows]
        lines.append("")
        lines.append(f"{args.targets} at once against {args.arch} alone, "
                     f"cold: median {statistics.median(r):.2f}x, worst "
                     f"{max(r):.2f}x, total %.2fx" % (
                         sum(row["targets"] for row in rows) /
                         sum(row["cold"] for row in rows)))
        # A file whose code differs between the targets needs a parse per
        # distinct code: what those parses cost alone, at one device
        # parse each, is a floor no other saving goes under.
        several = [row for row in rows if row["parses"] > 1]
        lines.append(f"{len(several)} files need more than one parse: "
                     "the runs of one target plus a device parse for each "
                     "parse beyond the first, the floor of the ratio above, "
                     "%.2fx" % (
                         1 + sum((row["parses"] - 1) * row["dev"]
                                 for row in several) /
                         sum(row["cold"] for row in rows)))
    if "hit" in columns:
        lines.append("")
        lines.append("a cache hit against a cold run, total: %.1f%%" % (
            100 * sum(row["hit"] for row in rows) /
            sum(row["cold"] for row in rows)))
    lines.append("")
    lines.append("slowest cold (ratio to dev):")
    for row in sorted(rows, key=lambda r: -r["cold"] / r["dev"])[
            :args.slowest]:
        lines.append(f"- {row['file']}: {row['cold'] / row['dev']:.2f}x "
                     f"({row['cold']:.2f} s against {row['dev']:.2f} s)")
    print("\n" + "\n".join(lines))
    if args.markdown:
        Path(args.markdown).write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
