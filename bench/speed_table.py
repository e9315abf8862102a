#!/usr/bin/env python3
"""The cost of warplint on real code, against the compilers' own costs.

For each file of a corpus (bench/speed-corpus.txt: the examples, the CCCL
files of bench/ and larger real files of public projects, fetched beside the
checkout, never committed), fastest of --runs runs, in seconds and as ratios
to one device-only parse with the same flags (the floor warplint builds on):

  dev     clang++-22 -x cuda --cuda-device-only -fsyntax-only
  AST     warplint, every check, --ir-layer=false
  AST+IR  warplint, every check, with the IR layer (the default)
  both    clang++-22 -x cuda -fsyntax-only: host and device, what a build's
          syntax check (and clang-tidy on a CUDA file) pays
  tidy    clang-tidy-22 -checks=-*,bugprone-* on the host side only
          (--cuda-host-only), as clang-tidy users run it
  nvcc    nvcc -c -arch=sm_XX, the build of the same file (--nvcc-runs runs)

and the peak resident set of warplint (AST+IR) against the device parse's.
Then the corpus's throughput: one warplint over every file with -j1 and
with -j2 (wall clock, fastest of --runs).

warplint runs with its ptxas cache warm (launch-occupancy's nvcc ran once
before the timed runs), as every lint after a file's first does.

    python3 bench/speed_table.py [--ext DIR] [--runs 5] [--cpu]
        [--corpus bench/speed-corpus.txt] [--markdown out.md]

DIR is the directory the corpus's public repositories were cloned into
(cuda-samples, llm.c and gpu-rodinia, each under its own name, as
bench/speed-corpus.txt's header shows); by default the ext directory beside
the checkout (../ext). A corpus line is a path: relative to the checkout if
it exists there, else to DIR. The -I flags are guessed from the file's tree
as bench/sweep.py does; text after a '|' on the line adds flags.
"""
import argparse
import math
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep import include_guesses  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def run_once(cmd, cpu, env=None, stderr=None):
    """(seconds, peak RSS in MiB) of one run of cmd and its children. With
    stderr (a list), what the run wrote on standard error is appended."""
    err = None if stderr is None else tempfile.TemporaryFile("w+")
    start_wall = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                         stderr=err or subprocess.DEVNULL, env=env)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start_wall
    if err:
        with err:
            err.seek(0)
            stderr.append(err.read())
    p.returncode = os.waitstatus_to_exitcode(status)
    secs = ru.ru_utime + ru.ru_stime if cpu else wall
    return secs, ru.ru_maxrss / 1024.0, p.returncode


def best(cmd, runs, cpu, env=None, ok=(0,)):
    times, rss = [], []
    for _ in range(runs):
        t, m, rc = run_once(cmd, cpu, env)
        if rc not in ok:
            raise RuntimeError(f"exit {rc}: {' '.join(map(str, cmd))}")
        times.append(t)
        rss.append(m)
    return min(times), max(rss)


def clang_flags(cuda, arch):
    """The flags clang++-22 needs to parse a CUDA file as warplint does:
    the toolkit, its CCCL headers, and one target."""
    return ["--cuda-path=" + cuda, "-isystem",
            os.path.join(cuda, "include/cccl"), "-nogpulib",
            "-Wno-unknown-cuda-version", "--no-cuda-version-check",
            "-Xclang", "-target-sdk-version=13.0",
            "--cuda-gpu-arch=" + arch]


def corpus(args):
    for line in Path(args.corpus).read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        path, _, extra = line.partition("|")
        path = path.strip()
        if (ROOT / path).exists():
            root, f = ROOT, ROOT / path
        else:
            f = Path(args.ext) / path
            root = Path(args.ext) / Path(path).parts[0]
        if not f.exists():
            print(f"warning: {path} not found (fetch it under --ext)",
                  file=sys.stderr)
            continue
        # An extra -I relative to the tree, as the corpus writes it.
        flags = ["-I" + str(Path(args.ext) / a[2:])
                 if a.startswith("-I") and not Path(a[2:]).is_absolute()
                 else a for a in extra.split()]
        yield f, include_guesses(root, f) + flags


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=str(ROOT / "bench/speed-corpus.txt"))
    ap.add_argument("--ext", default=str(ROOT.parent / "ext"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--nvcc-runs", type=int, default=1)
    ap.add_argument("--arch", default="sm_80")
    ap.add_argument("--cpu", action="store_true",
                    help="CPU seconds instead of wall-clock seconds")
    ap.add_argument("--cuda-path", default="/usr/local/cuda")
    ap.add_argument("--warplint", default=str(ROOT / "build/bin/warplint"))
    ap.add_argument("--clang", default="clang++-22")
    ap.add_argument("--clang-tidy", default="clang-tidy-22")
    ap.add_argument("--no-nvcc", action="store_true")
    ap.add_argument("--no-tidy", action="store_true")
    ap.add_argument("--markdown", help="also write the table here")
    args = ap.parse_args()

    cuda = args.cuda_path
    common = clang_flags(cuda, args.arch)
    have_tidy = not args.no_tidy and shutil.which(args.clang_tidy)
    cache = tempfile.mkdtemp(prefix="warplint-speed-")
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    env.pop("WARPLINT_CACHE_DIR", None)  # no result cache: every run parses

    cols = ["dev", "AST", "AST+IR", "both", "tidy", "nvcc"]
    rows, files = [], []
    hdr = (f"{'file':34} " + " ".join(f"{c:>7}" for c in cols) +
           f" {'AST/dev':>8} {'IR/dev':>7} {'both/dev':>8} {'tidy/dev':>8}"
           f" {'nvcc/dev':>8} {'RSS MiB':>8} {'RSS/dev':>7}")
    print(hdr, flush=True)
    for f, flags in corpus(args):
        files.append((f, flags))
        lint = [args.warplint, "--quiet", "--arch=" + args.arch,
                "--cuda-path=" + cuda, str(f), "--"] + flags
        # Warm warplint's ptxas cache for this file, untimed.
        subprocess.run(lint, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, env=env)
        dev, dev_rss = best([args.clang, "-x", "cuda", "--cuda-device-only",
                             "-fsyntax-only"] + common + flags + [str(f)],
                            args.runs, args.cpu, ok=(0, 1))
        ast, _ = best(lint[:1] + ["--ir-layer=false"] + lint[1:],
                      args.runs, args.cpu, env, ok=(0, 1))
        ir, ir_rss = best(lint, args.runs, args.cpu, env, ok=(0, 1))
        both, _ = best([args.clang, "-x", "cuda", "-fsyntax-only"] + common +
                       flags + [str(f)], args.runs, args.cpu, ok=(0, 1))
        tidy = float("nan")
        if have_tidy:
            tidy, _ = best([args.clang_tidy, "-checks=-*,bugprone-*",
                            "--quiet", str(f), "--", "-x", "cuda",
                            "--cuda-host-only"] + common + flags,
                           args.runs, args.cpu, ok=(0, 1))
        nvcc = float("nan")
        if not args.no_nvcc:
            # nvcc rejects some of what warplint is for (the legacy
            # __any of an example): no figure for that file.
            try:
                nvcc, _ = best([os.path.join(cuda, "bin/nvcc"), "-c",
                                "-arch=" + args.arch, "-o", os.devnull] +
                               flags + [str(f)], args.nvcc_runs, args.cpu)
            except RuntimeError:
                pass
        row = [dev, ast, ir, both, tidy, nvcc, ir_rss, dev_rss]
        rows.append((f, row))
        print(line(f.name, row), flush=True)
    total = [sum(r[i] for _, r in rows) for i in range(5)]
    # nvcc's total over the files it builds, scaled to the whole corpus's
    # device parse so that its ratio compares like with like.
    built = [r for _, r in rows if not math.isnan(r[5])]
    total.append(sum(r[5] for r in built) * total[0] /
                 max(1e-9, sum(r[0] for r in built)) if built else float("nan"))
    total += [max(r[6] for _, r in rows), max(r[7] for _, r in rows)]
    print(line("total", total))
    rss_ratio = max(r[6] / r[7] for _, r in rows)
    print(f"worst RSS ratio (warplint / device parse): {rss_ratio:.2f}")

    # Throughput: every file in one warplint run, -j1 against -j2. Files
    # with different flags cannot share one command line, so the union of
    # the -I flags is passed (a search path a file does not use changes
    # nothing in its parse but the search).
    union = []
    for _, flags in files:
        for fl in flags:
            if fl not in union:
                union.append(fl)
    many = [args.warplint, "--quiet", "--arch=" + args.arch,
            "--cuda-path=" + cuda] + [str(f) for f, _ in files] + ["--"] + union
    j1, _ = best(many[:1] + ["-j", "1"] + many[1:], max(1, args.runs // 2),
                 False, env, ok=(0, 1))
    j2, _ = best(many[:1] + ["-j", "2"] + many[1:], max(1, args.runs // 2),
                 False, env, ok=(0, 1))
    print(f"throughput over {len(files)} files (wall): -j1 {j1:.2f} s, "
          f"-j2 {j2:.2f} s, speed-up {j1 / j2:.2f}x")
    shutil.rmtree(cache, ignore_errors=True)

    if args.markdown:
        write_markdown(args, rows, total, rss_ratio, len(files), j1, j2)


def line(name, r):
    dev, ast, ir, both, tidy, nvcc, rss, dev_rss = r
    return (f"{name[:34]:34} " +
            " ".join(f"{x:7.2f}" for x in (dev, ast, ir, both, tidy, nvcc)) +
            f" {ast / dev:8.2f} {ir / dev:7.2f} {both / dev:8.2f}"
            f" {tidy / dev:8.2f} {nvcc / dev:8.2f} {rss:8.0f}"
            f" {rss / dev_rss:7.2f}")


def write_markdown(args, rows, total, rss_ratio, n, j1, j2):
    unit = "CPU s" if args.cpu else "s"
    out = [f"| file | dev ({unit}) | AST | AST+IR | host+dev | clang-tidy | "
           "nvcc -c | warplint RSS (MiB) | RSS / dev |",
           "|---|---|---|---|---|---|---|---|---|"]

    def cells(name, r):
        dev, ast, ir, both, tidy, nvcc, rss, dev_rss = r
        return (f"| {name} | {dev:.2f} | {ast / dev:.2f}x | {ir / dev:.2f}x |"
                f" {both / dev:.2f}x | {tidy / dev:.2f}x | "
                f"{'—' if math.isnan(nvcc) else f'{nvcc / dev:.1f}x'} |"
                f" {rss:.0f} | {rss / dev_rss:.2f} |")
    for f, r in rows:
        out.append(cells(f.name, r))
    out.append(cells("**total**", total))
    out.append("")
    rejected = [f.name for f, r in rows if math.isnan(r[5])]
    if rejected:
        out.append("nvcc -c rejects " + ", ".join(rejected) + " (no figure; "
                   "its total is scaled from the files it builds).")
        out.append("")
    out.append(f"Worst RSS ratio: {rss_ratio:.2f}. Throughput over {n} "
               f"files: -j1 {j1:.1f} s, -j2 {j2:.1f} s ({j1 / j2:.2f}x).")
    Path(args.markdown).write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    sys.exit(main())
