#!/usr/bin/env python3
"""Registers from warplint's own PTX against nvcc's, on real files.

For each file of the corpus (bench/speed-corpus.txt and any --list), runs
launch-occupancy twice, with --registers-from=nvcc (the toolkit compiles
the whole file; ptxas's counts for nvcc's code) and --registers-from=ir
(ptxas on the PTX warplint generates of the launched kernels), each with a
fresh cache, and compares:

  registers  per kernel and target the check asked about: the same count,
             the same allocation (ptxas's count rounded up to 8 per
             thread, the unit a warp's 256 registers make), or unknown in
             one route (over the size budget, not compiled)
  verdicts   launch-occupancy with every launch limited by registers or
             shared memory reported (MinOccupancy 101, MinGain 0): a
             launch whose finding (blocks per SM, limiter) is not the same
             in both routes is a different verdict; a launch neither
             reports has the same one (not limited by registers or shared
             memory)

    python3 bench/registers.py [--ext DIR] [--arch sm_80] [--list FILE]
        [--markdown out.md]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from speed_table import ROOT, corpus  # noqa: E402

CONFIG = """Checks: '-*,launch-occupancy'
CheckOptions:
  launch-occupancy.MinOccupancy: 101
  launch-occupancy.MinGain: 0
"""
ASKED = re.compile(r"^warplint: .*?: (sm_\w+) (\S+): (?:(\d+) registers.*|not known: (.*))$")


def lint(args, f, flags, route, config):
    d = tempfile.mkdtemp(prefix="warplint-regs-")
    env = dict(os.environ, XDG_CACHE_HOME=d,
               WARPLINT_CACHE_DIR=os.path.join(d, "results"))
    cmd = [args.warplint, "--format=json", "-j", "1", "--print-registers",
           "--config-file=" + config, "--registers-from=" + route,
           "--arch=" + args.arch, "--cuda-path=" + args.cuda_path,
           str(f), "--"] + flags
    try:
        p = subprocess.run(cmd, capture_output=True, env=env, text=True)
        out, err = p.stdout, p.stderr
    finally:
        shutil.rmtree(d, ignore_errors=True)
    regs = {}
    refused = False
    for line in err.splitlines():
        m = ASKED.match(line)
        if m:
            key = (m.group(1), m.group(2))
            regs[key] = int(m.group(3)) if m.group(3) else None
            # Where nvcc could not compile the file, its launches have no
            # reference to compare with.
            refused = refused or bool(m.group(4) and m.group(4).startswith(
                "nvcc could not compile the file"))
    verdicts = {}
    try:
        doc = json.loads(out)
    except json.JSONDecodeError:
        return regs, verdicts, refused
    for fd in doc.get("findings", []):
        if fd.get("check") != "launch-occupancy":
            continue
        loc = fd
        msg = fd.get("message", "")
        limited = re.search(r"limited by ([^:]+):", msg)
        blocks = re.search(r"(\d+) blocks? of \d+ threads", msg)
        verdicts[(loc.get("line"), loc.get("column"))] = (
            blocks.group(1) if blocks else "?",
            limited.group(1) if limited else "?")
    return regs, verdicts, refused


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=str(ROOT / "bench/speed-corpus.txt"))
    ap.add_argument("--list", action="append", default=[],
                    help="more files, as the corpus lists them")
    ap.add_argument("--ext", default=str(ROOT.parent / "ext"))
    ap.add_argument("--arch", default="sm_80")
    ap.add_argument("--cuda-path", default="/usr/local/cuda")
    ap.add_argument("--warplint", default=str(ROOT / "build/bin/warplint"))
    ap.add_argument("--markdown")
    args = ap.parse_args()

    files = list(corpus(args))
    for extra in args.list:
        files += list(corpus(argparse.Namespace(corpus=extra, ext=args.ext)))
    config = tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False)
    config.write(CONFIG)
    config.close()
    same = near = unknown = kernels = 0
    v_same = v_total = v_differ = 0
    # Of the files nvcc compiles: kernels asked about, verdicts that differ.
    ref_kernels = ref_differ = 0
    no_nvcc = []
    differ = []
    for f, flags in files:
        flags = ["-isystem", os.path.join(args.cuda_path, "include/cccl")] + \
            flags
        nv_regs, nv_v, refused = lint(args, f, flags, "nvcc", config.name)
        ir_regs, ir_v, _ = lint(args, f, flags, "ir", config.name)
        name = Path(f).name
        if refused:
            no_nvcc.append(name)
        kernels_before, v_differ_before = kernels, v_differ
        for key in sorted(set(nv_regs) | set(ir_regs)):
            a, b = nv_regs.get(key), ir_regs.get(key)
            if a is None and b is None:
                continue
            if key[1].startswith("_Z") and ("_ZL" + key[1][2:]) in \
                    {k for _, k in ir_regs}:
                continue  # nvcc's name of a static kernel, asked twice
            kernels += 1
            if a is None or b is None:
                unknown += 1
                differ.append(f"{name} {key[0]} {key[1]}: nvcc {a}, ir {b}")
            elif a == b:
                same += 1
            elif (a + 7) // 8 == (b + 7) // 8:
                near += 1
            else:
                differ.append(f"{name} {key[0]} {key[1]}: nvcc {a}, ir {b}")
        for loc in sorted(set(nv_v) | set(ir_v), key=str):
            v_total += 1
            if nv_v.get(loc) == ir_v.get(loc):
                v_same += 1
            else:
                v_differ += 1
                differ.append(f"{name}:{loc[0]}:{loc[1]} verdict: nvcc "
                              f"{nv_v.get(loc)}, ir {ir_v.get(loc)}")
        if not refused:
            ref_kernels += kernels - kernels_before
            ref_differ += v_differ - v_differ_before
        print(f"{name:40} kernels nvcc {len(nv_regs)} ir {len(ir_regs)}; "
              f"findings nvcc {len(nv_v)} ir {len(ir_v)}", flush=True)
    os.unlink(config.name)
    lines = [f"{len(files)} files, {args.arch}: {kernels} kernels asked "
             f"about",
             f"- registers the same: {same}; the same allocation (to 8): "
             f"{near}; different: {kernels - same - near - unknown}; "
             f"unknown in one route: {unknown}",
             f"- launches reported as limited by registers or shared memory "
             f"in either route: {v_total}, the same finding in both: "
             f"{v_same}",
             f"- the verdict differs for {v_differ} of the {kernels} kernels "
             f"judged ({100.0 * (kernels - v_differ) / max(kernels, 1):.1f}%"
             f" the same)",
             f"- of the {len(files) - len(no_nvcc)} files nvcc compiles: "
             f"the verdict differs for {ref_differ} of {ref_kernels} "
             f"({100.0 * (ref_kernels - ref_differ) / max(ref_kernels, 1):.1f}"
             f"% the same); nvcc could not compile "
             f"{', '.join(no_nvcc) or 'none of them'}",
             "", "differences:"] + [f"- {d}" for d in differ]
    print("\n".join(lines))
    if args.markdown:
        Path(args.markdown).write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
