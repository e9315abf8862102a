#!/usr/bin/env python3
"""warplint's predictions for bench/gpu/predictions.cu beside what an H100
measured for the same lines.

Record (after run_predictions.sh on the GPU machine):
    compare_predictions.py --warplint build/bin/warplint \\
        --ncu predictions-ncu.csv --synccheck predictions-synccheck.txt \\
        --write bench/gpu/predictions-h100-sm90.csv
Check (no GPU; CI): the current build predicts what the recorded table says,
and every recorded disagreement is explained in its note column:
    compare_predictions.py --warplint build/bin/warplint \\
        --check bench/gpu/predictions-h100-sm90.csv
Markdown table for docs/accuracy.md:
    compare_predictions.py --markdown bench/gpu/predictions-h100-sm90.csv

What is compared, per `measure:` comment (see predictions.cu):
  ld/st N      global sectors per request. A finding's sectors_per_request;
               no finding predicts at most the contiguous minimum (N bytes x
               32 lanes in 32-byte sectors): agreement is measured <= it.
  shared_* N   N-way: bank_conflict_ways, 1 without a finding; measured is
               shared wavefronts per instruction over the passes N-byte
               elements take (N x 32 / 128).
  occupancy    blocks per SM: launch-occupancy's blocks_per_sm (reported for
               every launch held by registers or shared memory, with
               MinOccupancy 101); measured min(launch__occupancy_limit_*).
  barrier      1 when divergence-barrier reports the line; measured 1 when
               synccheck reports a barrier error there.
  branch       divergent warps per block: divergence-subwarp-branch's
               warps_split, 0 without a finding; measured divergent branch
               targets over the grid's blocks.
  fp64         1 when arith-fp64-promotion reports the line; measured 1 when
               the kernel executes FP64 add/mul/fma instructions.
  ld_pct N     global load (st_pct: store) efficiency: a finding's
               bytes_used_pct, 100 without one; measured the average % of a
               sector's bytes used (smsp__sass_average_data_bytes_per_sector).
  ld_requests N  global load (st_requests: store) requests per warp of the
               kernel: its memory-uncoalesced-access findings of that kind
               (the kernels that carry it make only uncoalesced accesses);
               measured l1tex__t_requests over the warps launched. This is
               what the IR layer's optimised view changes (merged, removed).
A row whose measured value is "pending" was added without a GPU run: its
prediction is checked, its agreement waits for run_predictions.sh.
"""
import argparse
import csv
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "predictions.cu")
FIELDS = ["kernel", "line", "kind", "predicted", "measured", "agree", "note"]


def kernel_lines(source):
    """kernel -> (first line, last line) of its definition and what follows
    up to the next kernel."""
    starts = []
    for n, text in enumerate(open(source).read().split("\n"), 1):
        m = re.search(r"__global__ void (?:__launch_bounds__\([^)]*\) )?(\w+)", text)
        if m:
            starts.append((n, m.group(1)))
    out = {}
    for k, (n, name) in enumerate(starts):
        end = starts[k + 1][0] - 1 if k + 1 < len(starts) else 10 ** 9
        out.setdefault(name, (n, end))
    return out


def measures(source):
    """(line, kind, bytes, kernel) for each measure: comment."""
    out, kernel = [], None
    for n, text in enumerate(open(source).read().split("\n"), 1):
        m = re.search(r"__global__ void (?:__launch_bounds__\([^)]*\) )?(\w+)", text)
        if m:
            kernel = m.group(1)
        m = re.search(r"// measure: (\w+)(?: (\d+))?", text)
        if not m:
            continue
        name = kernel
        launch = re.match(r"\s*([\w<>]+)<<<", text)
        if launch:
            name = launch.group(1)
        out.append((n, m.group(1), int(m.group(2) or 0), name))
    return out


def lint(warplint, source):
    """warplint's JSON findings for the file, judged for sm_90 with every
    launch held by registers or shared memory reported."""
    with tempfile.TemporaryDirectory() as d:
        shutil.copy(source, d)
        with open(os.path.join(d, ".warplint.yaml"), "w") as f:
            f.write("CheckOptions:\n  launch-occupancy.MinOccupancy: 101\n")
        r = subprocess.run([warplint, "--arch=sm_90", "--format=json",
                            os.path.join(d, os.path.basename(source)), "--"],
                           capture_output=True, text=True)
        doc = json.loads(r.stdout)
    if doc.get("errors"):
        sys.exit(f"warplint could not analyse {source}: {doc['errors']}")
    by_line = defaultdict(list)
    for f in doc["findings"]:
        by_line[f["line"]].append(f)
    return by_line


def predict(by_line, line, kind, size, span=None):
    def metric(check, name):
        for f in by_line.get(line, []):
            if f["check"] == check:
                return f["metrics"].get(name, 1)
        return None

    if kind in ("ld_pct", "st_pct"):
        v = metric("memory-uncoalesced-access", "bytes_used_pct")
        return 100 if v is None else int(v)
    if kind in ("ld_requests", "st_requests"):
        word = "each warp load" if kind == "ld_requests" else "each warp store"
        return sum(1 for n in range(span[0], span[1] + 1)
                   for f in by_line.get(n, [])
                   if f["check"] == "memory-uncoalesced-access"
                   and f["message"].startswith(word))
    if kind in ("ld", "st"):
        v = metric("memory-uncoalesced-access", "sectors_per_request")
        if v is None and span:
            # A sibling reported with its group, at the group's first
            # access: the group's finding gives each member's sectors.
            word = "each warp load" if kind == "ld" else "each warp store"
            for n in range(span[0], line):
                for f in by_line.get(n, []):
                    if (f["check"] == "memory-uncoalesced-access"
                            and f["message"].startswith(word)
                            and f["metrics"].get("group_accesses", 1) > 1):
                        v = f["metrics"]["sectors_per_request"]
        return ("<=%d" % math.ceil(size * 32 / 32)) if v is None else int(v)
    if kind.startswith("shared"):
        v = metric("memory-shared-bank-conflict", "bank_conflict_ways")
        return 1 if v is None else int(v)
    if kind == "occupancy":
        v = metric("launch-occupancy", "blocks_per_sm")
        return "none" if v is None else int(v)
    if kind == "barrier":
        # A barrier only part of the block reaches; the early-exit rule's
        # data hazards (metric exit_hazard) are another prediction.
        return int(any(f["check"] == "divergence-barrier" and
                       "exit_hazard" not in f["metrics"]
                       for f in by_line.get(line, [])))
    if kind == "branch":
        v = metric("divergence-subwarp-branch", "warps_split")
        return 0 if v is None else int(v)
    if kind == "fp64":
        return int(metric("arith-fp64-promotion", "") is not None)
    raise ValueError(kind)


def read_ncu(path):
    values = defaultdict(dict)
    with open(path) as f:
        lines = [l for l in f if l.startswith('"')]
    for row in csv.DictReader(lines):
        name = re.sub(r"^void ", "", row["Kernel Name"]).split("(")[0]
        try:
            values[name][row["Metric Name"]] = float(
                row["Metric Value"].replace(",", ""))
        except ValueError:
            pass
    return values


def measure(ncu, sync_lines, line, kind, size, kernel):
    if kind == "barrier":
        return int(line in sync_lines)
    m = ncu[kernel]

    def ratio(a, b):
        return m[a] / m[b] if m.get(b) else float("nan")

    if kind in ("ld_pct", "st_pct"):
        op = kind.split("_")[0]
        return round(m[f"smsp__sass_average_data_bytes_per_sector_mem_global_op_{op}.pct"], 1)
    if kind in ("ld_requests", "st_requests"):
        op = kind.split("_")[0]
        warps = m["launch__grid_size"] * math.ceil(m["launch__block_size"] / 32)
        return round(m[f"l1tex__t_requests_pipe_lsu_mem_global_op_{op}.sum"] / warps, 2)
    if kind == "ld":
        return round(ratio("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                           "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 2)
    if kind == "st":
        return round(ratio("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                           "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"), 2)
    if kind.startswith("shared"):
        op = kind.split("_")[1]
        passes = max(1, size * 32 // 128)
        return round(ratio(f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum",
                           f"smsp__inst_executed_op_shared_{op}.sum") / passes, 2)
    if kind == "occupancy":
        return int(min(m[k] for k in (
            "launch__occupancy_limit_blocks", "launch__occupancy_limit_registers",
            "launch__occupancy_limit_shared_mem", "launch__occupancy_limit_warps")))
    if kind == "branch":
        return round(m["smsp__sass_branch_targets_threads_divergent.sum"] /
                     m["launch__grid_size"], 2)
    if kind == "fp64":
        return int(sum(m.get(f"smsp__sass_thread_inst_executed_op_{o}_pred_on.sum", 0)
                       for o in ("dadd", "dmul", "dfma")) > 0)
    raise ValueError(kind)


def agrees(predicted, measured):
    if isinstance(predicted, str) and predicted.startswith("<="):
        return measured <= float(predicted[2:])
    if predicted == "none":
        return False
    return float(predicted) == float(measured)


def norm(v):
    return str(v)


def label(kind, size):
    return f"{kind} {size}" if size else kind


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warplint")
    ap.add_argument("--source", default=SOURCE)
    ap.add_argument("--ncu")
    ap.add_argument("--synccheck")
    ap.add_argument("--write")
    ap.add_argument("--check")
    ap.add_argument("--markdown")
    a = ap.parse_args()

    if a.markdown:
        rows = list(csv.DictReader(l for l in open(a.markdown) if not l.startswith("#")))
        print("| kernel | line | prediction | warplint | H100 | agree | note |")
        print("|---|---|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['kernel']} | {r['line']} | {r['kind']} | {r['predicted']} "
                  f"| {r['measured']} | {r['agree']} | {r['note']} |")
        agree = sum(r["agree"] == "yes" for r in rows)
        pending = sum(r["measured"] == "pending" for r in rows)
        print(f"\n{agree} of {len(rows) - pending} predictions agree with the H100"
              + (f"; {pending} await a GPU run." if pending else "."))
        return 0

    by_line = lint(a.warplint, a.source)
    points = measures(a.source)
    spans = kernel_lines(a.source)

    def predicted(line, kind, size, kernel):
        return predict(by_line, line, kind, size, spans.get(kernel))

    if a.write:
        ncu = read_ncu(a.ncu)
        sync_lines = {int(n) for n in re.findall(r"predictions\.cu:(\d+)",
                                                   open(a.synccheck).read())}
        old = {}
        if os.path.exists(a.write):
            old = {(r["kernel"], r["kind"]): r["note"] for r in csv.DictReader(
                l for l in open(a.write) if not l.startswith("#"))}
        with open(a.write, "w", newline="") as f:
            f.write("# warplint --arch=sm_90 (bench/gpu/compare_predictions.py) against an\n"
                    "# NVIDIA H100 80GB HBM3 (bench/gpu/run_predictions.sh: Nsight Compute,\n"
                    "# compute-sanitizer synccheck), CUDA 13.0. A disagreement's note says why.\n")
            w = csv.DictWriter(f, FIELDS, lineterminator="\n")
            w.writeheader()
            for line, kind, size, kernel in points:
                p = predicted(line, kind, size, kernel)
                m = measure(ncu, sync_lines, line, kind, size, kernel)
                w.writerow({"kernel": kernel, "line": line, "kind": label(kind, size),
                            "predicted": p, "measured": m,
                            "agree": "yes" if agrees(p, m) else "no",
                            "note": old.get((kernel, label(kind, size)), "")})
        return 0

    if a.check:
        rows = list(csv.DictReader(l for l in open(a.check) if not l.startswith("#")))
        recorded = {(r["kernel"], r["kind"]): r for r in rows}
        bad = 0
        for line, kind, size, kernel in points:
            r = recorded.get((kernel, label(kind, size)))
            if r is None:
                print(f"{kernel} ({kind}): not in the recorded table; record it on the GPU")
                bad += 1
                continue
            p = norm(predicted(line, kind, size, kernel))
            if p != r["predicted"]:
                print(f"{kernel} line {line} ({kind}): warplint now predicts {p}, "
                      f"recorded {r['predicted']} (H100 measured {r['measured']})")
                bad += 1
            if r["measured"] == "pending":
                continue
            if r["agree"] != "yes" and not r["note"]:
                print(f"{kernel} ({kind}): disagrees with the H100 and has no note")
                bad += 1
        agree = sum(r["agree"] == "yes" for r in rows)
        pending = sum(r["measured"] == "pending" for r in rows)
        print(f"{len(points)} predictions checked, {bad} problems; "
              f"{agree} of {len(rows) - pending} recorded agree with the H100"
              + (f"; {pending} pending a GPU run" if pending else ""))
        return 1 if bad else 0
    ap.error("one of --write, --check, --markdown")


if __name__ == "__main__":
    sys.exit(main())
