#!/usr/bin/env python3
"""launch-occupancy's two register routes side by side on the corpus.

For each listed file of the development corpus (corpus.tsv) that launches
a kernel (`<<<`), runs launch-occupancy twice, with the registers of
warplint's own code generation (the default route) and with
--registers-from=nvcc (nvcc's, exact), both with --print-registers, and
writes one JSON line per file: the registers each route gave each kernel
and each route's findings. Then prints, over the kernels nvcc's route
judged (it has their registers or reports on them):

    registers   kernels both routes count: equal, within 4, within 8
    verdicts    kernels (and their launches) whose launches get a warning
                under both routes or under neither; those where the
                routes differ and the default route's finding is a note
                (it says the verdict could differ) or, for a kernel it
                has no registers for, the file's note or an error of the
                parse says why; those where they differ with no such word

    python3 bench/realcode/routes.py --root ROOT --out routes.jsonl
        [--project NAME ...] [--warplint PATH] [--arch sm_80] [--jobs 2]
    python3 bench/realcode/routes.py --table routes.jsonl --root ROOT

The default cache directory serves both routes: a second run re-reads
nvcc's answers for unchanged files.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lint_corpus  # noqa: E402

REGISTERS = re.compile(r"warplint: .*?: (sm_\d+) (\S+): (\d+) registers")


def run_route(warplint, arch, row, project_dir, path, route):
    cmd = [warplint, "--format=json", "--quiet", "--print-registers",
           "--checks=-*,launch-occupancy", "--arch=" + arch, "--timeout=150"]
    if route == "nvcc":
        cmd.append("--registers-from=nvcc")
    cmd += [os.path.join(project_dir, path), "--"] + shlex.split(row["flags"])
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=project_dir)
    regs = {}
    for line in p.stderr.splitlines():
        m = REGISTERS.match(line)
        if m:
            regs[m.group(2)] = int(m.group(3))
    findings = []
    try:
        out = json.loads(p.stdout)
        for f in out.get("findings", []):
            findings.append([f["file"], f["line"], f["severity"], f["message"]])
        # The parse's errors (the file's lint is incomplete, and says so).
        for e in out.get("errors", []):
            findings.append(["", 0, "error", json.dumps(e)])
    except (ValueError, KeyError):
        pass
    return regs, findings


def kernel_verdicts(findings):
    """The strongest finding (2 warning, 1 note) each kernel's launches
    get, by the name the message starts with."""
    out = {}
    for _, _, severity, message in findings:
        m = re.match(r"'([^']+)'", message)
        if m:
            level = 2 if severity == "warning" else 1
            out[m.group(1)] = max(out.get(m.group(1), 0), level)
    return out


def kernel_names(registers):
    """Kernel names of mangled names (_Z11sgemm_naive... -> sgemm_naive)."""
    out = set()
    for mangled in registers:
        m = re.match(r"_ZL?(\d+)(\w+)", mangled)
        if m:
            out.add(m.group(2)[: int(m.group(1))])
    return out


def table(rows, root):
    diffs = []
    kernels = launches = same = same_l = noted = noted_l = 0
    silent = []
    for r in rows:
        ir_regs, ir_findings = r["ir"]
        nv_regs, nv_findings = r["nvcc"]
        diffs += [ir_regs[k] - nv_regs[k] for k in ir_regs if k in nv_regs]
        path = os.path.join(root, r["project"], r["file"])
        with open(path, errors="ignore") as f:
            source = f.read()
        ir, nv = kernel_verdicts(ir_findings), kernel_verdicts(nv_findings)
        for name in sorted(kernel_names(nv_regs) | set(nv)):
            spelled = r"\b" + re.escape(name) + r"\s*(?:<[^;<>]*>)?\s*<<<"
            n = len(re.findall(spelled, source)) or 1
            kernels += 1
            launches += n
            a, b = ir.get(name, 0), nv.get(name, 0)
            if (a == 2) == (b == 2):
                same, same_l = same + 1, same_l + n
            elif a == 1 or (name not in kernel_names(ir_regs) and any(
                    " without their registers " in m
                    or " without its registers " in m or severity == "error"
                    for _, _, severity, m in ir_findings)):
                noted, noted_l = noted + 1, noted_l + n
            else:
                silent.append((r["project"], r["file"], name, a, b))
    within = sorted(abs(d) for d in diffs)
    print(f"registers: {len(diffs)} kernels both routes count: equal "
          f"{sum(d == 0 for d in within)}, within 4 "
          f"{sum(d <= 4 for d in within)}, within 8 "
          f"{sum(d <= 8 for d in within)}; beyond 8: "
          f"{sorted(d for d in diffs if abs(d) > 8)}")
    print(f"verdicts: {kernels} kernels nvcc's route judges ({launches} "
          f"launches): the same warning verdict for {same} ({same_l} "
          f"launches); different, the default route saying so in a note: "
          f"{noted} ({noted_l}); different without one: {len(silent)}")
    for s in silent:
        print("   ", *s)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--out")
    ap.add_argument("--table", help="print the table of this output only")
    ap.add_argument("--project", action="append")
    ap.add_argument("--warplint",
                    default=os.path.join(lint_corpus.ROOT, "build", "bin",
                                         "warplint"))
    ap.add_argument("--arch", default="sm_80")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    if args.table:
        with open(args.table) as f:
            table([json.loads(line) for line in f], args.root)
        return 0
    if not args.out:
        ap.error("--out is required unless --table is given")
    jobs = []
    for row in lint_corpus.read_corpus():
        if args.project and row["name"] not in args.project:
            continue
        d = os.path.join(args.root, row["name"])
        if not os.path.isdir(d):
            continue
        for path in lint_corpus.expand_files(d, row["files"], 20):
            with open(os.path.join(d, path), errors="ignore") as f:
                if "<<<" in f.read():
                    jobs.append((row, d, path))

    def both(job):
        row, d, path = job
        return {"project": row["name"], "file": path,
                "ir": run_route(args.warplint, args.arch, row, d, path, "ir"),
                "nvcc": run_route(args.warplint, args.arch, row, d, path,
                                  "nvcc")}

    rows = []
    with open(args.out, "w") as out, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for r in pool.map(both, jobs):
            rows.append(r)
            out.write(json.dumps(r) + "\n")
            out.flush()
    table(rows, args.root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
