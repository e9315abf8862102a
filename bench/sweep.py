#!/usr/bin/env python3
"""Real-code sweep: lint every .cu under some directories and report.

For each .cu file found under the directories given, with include paths
guessed from the tree (the file's directory, the directory swept, and every
include/, inc/, common/ or Common/ folder of the file's ancestors):

- warplint, every check, every target in arch-data (or --arch);
- clang++-22 --cuda-device-only -fsyntax-only with the same flags: warplint
  must never fail a file that clang accepts;
- nvcc -c -arch=sm_80 with the same -I, when --nvcc-verdicts names a file of
  verdicts (written by --run-nvcc, a separate and slow step: run it once, on
  the machine with most cores, and keep the file).

It writes a Markdown report (--out): files, TUs with compiler errors by
cause, findings per check, internal errors, the slowest files with their
ratio to a device-only parse, and warplint's rate on the files nvcc accepts.
The code swept is read, never copied into the repository.

    python3 bench/sweep.py --run-nvcc --nvcc-verdicts V.json DIR...  # once
    python3 bench/sweep.py --nvcc-verdicts V.json --out R.md DIR...
"""

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INCLUDE_DIR_NAMES = ("include", "inc", "common", "Common")


def find_sources(dirs):
    for d in dirs:
        root = Path(d).resolve()
        for p in sorted(root.rglob("*.cu")):
            if p.is_file():
                yield root, p


def include_guesses(root, path):
    """The -I a build of this tree would likely pass."""
    dirs = [path.parent]
    a = path.parent
    while True:
        for name in INCLUDE_DIR_NAMES:
            if (a / name).is_dir():
                dirs.append(a / name)
        if a == root or a == a.parent:
            break
        a = a.parent
    dirs.append(root)
    out = []
    for d in dirs:
        if d not in out:
            out.append(d)
    return ["-I" + str(d) for d in out]


def run(cmd, timeout, cwd=None):
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           errors="replace", timeout=timeout, cwd=cwd)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, out = "timeout", ""
        err = (e.stderr or b"").decode("utf-8", "replace") if isinstance(
            e.stderr, bytes) else (e.stderr or "")
    return rc, out, err, time.perf_counter() - t0


ERROR_RE = re.compile(r"^(?P<loc>[^\s:][^:]*:\d+:\d+): (?:fatal )?error: "
                      r"(?P<msg>.*)$", re.M)
NVCC_ERROR_RE = re.compile(r"^(?P<loc>[^\s(]+\(\d+\)): error: (?P<msg>.*)$",
                           re.M)


def first_error(text):
    m = ERROR_RE.search(text) or NVCC_ERROR_RE.search(text)
    if m:
        return m.group("loc"), m.group("msg").strip()
    for line in text.splitlines():
        if "error" in line:
            return "", line.strip()
    return "", ""


def cuda_path(args):
    return str(Path(args.nvcc).resolve().parent.parent)


def nvcc_cmd(args, root, path):
    # The host compiler checks the host code but generates none: the verdict
    # is nvcc's -c, in less time.
    return [args.nvcc, "-c", "-arch=sm_80", "-Xcompiler", "-fsyntax-only",
            "-o", os.devnull, *include_guesses(root, path), str(path)]


def toolkit_version(args):
    """The toolkit's version, as nvcc --version says it ("13.0")."""
    try:
        out = subprocess.run([args.nvcc, "--version"], capture_output=True,
                             text=True).stdout
    except OSError:
        return "12.0"
    m = re.search(r"release (\d+\.\d+)", out)
    return m.group(1) if m else "12.0"


def clang_cmd(args, root, path, arch):
    # As warplint parses: without the toolkit's version clang lowers <<<>>>
    # to cudaConfigureCall, which CUDA 13's headers no longer declare.
    cmd = [args.clang, "-x", "cuda", "--cuda-device-only", "-fsyntax-only",
           "--cuda-gpu-arch=" + arch, "--cuda-path=" + cuda_path(args),
           "-nogpulib", "--no-cuda-version-check",
           "-Wno-unknown-cuda-version", "-Xclang",
           "-target-sdk-version=" + args.sdk_version]
    cccl = Path(cuda_path(args)) / "include" / "cccl"
    if cccl.is_dir():  # nvcc adds it itself, and so does warplint
        cmd += ["-isystem", str(cccl)]
    return cmd + [*include_guesses(root, path), str(path)]


def warplint_cmd(args, root, path, archs):
    return [args.warplint, "--checks=*", "--arch=" + ",".join(archs),
            "--format=json", "--quiet", str(path), "--",
            *include_guesses(root, path)]


# --- nvcc's verdicts ---------------------------------------------------------

def nvcc_one(args, root, path):
    rc, _, err, secs = run(nvcc_cmd(args, root, path), args.timeout,
                           cwd=path.parent)
    loc, msg = first_error(err)
    return str(path), {"ok": rc == 0, "first_error": msg, "at": loc,
                       "seconds": round(secs, 2)}


def run_nvcc(args, sources):
    """Verdicts into --nvcc-verdicts, saved after each file: a run stopped
    half-way goes on where it stopped."""
    out = Path(args.nvcc_verdicts)
    verdicts = json.loads(out.read_text()) if out.exists() else {}
    todo = [rp for rp in sources if str(rp[1]) not in verdicts]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for key, v in pool.map(lambda rp: nvcc_one(args, *rp), todo):
            verdicts[key] = v
            print(("ok  " if v["ok"] else "ERR ") + key, file=sys.stderr)
            out.write_text(json.dumps(verdicts, indent=1, sort_keys=True) +
                           "\n")
    return verdicts


# --- clang and warplint ------------------------------------------------------

REMOVED_APIS = ("texture", "surface", "cudaThreadExit", "cudaThreadSynchronize",
                "cudaBindTexture", "cudaUnbindTexture", "tex1D", "tex2D",
                "tex3D", "cudaMemcpyToArray", "cudaMemcpyFromArray",
                "cudaSetDoubleForDevice", "cudaProfilerInitialize",
                "__shfl'", "__any'", "__all'", "__ballot'", "clockRate",
                "memoryClockRate", "deviceOverlap", "computeMode")


def classify(r):
    """The cause of a failed parse, by its first error and nvcc's verdict."""
    msg = r["warplint_error"][1]
    if r["internal"]:
        return "internal error"
    header = re.search(r"'([^']+)' file not found", msg)
    if header:
        return "missing header " + header.group(1)
    if r.get("nvcc_ok") is False and any(a in msg for a in REMOVED_APIS):
        return "API removed in CUDA 12/13"
    what = re.sub(r"'[^']*'", "'…'", msg)[:70]
    if r.get("nvcc_ok"):
        return "clang stricter than nvcc: " + what
    if r.get("nvcc_ok") is False:
        return "nvcc rejects it too: " + what
    return what


def clang_one(args, root, path, r):
    rc, _, err, secs = run(clang_cmd(args, root, path, "sm_80"),
                           args.timeout, cwd=path.parent)
    r["clang_ok"] = rc == 0
    r["clang_error"] = first_error(err)
    r["clang_seconds"] = secs


def lint_one(args, root, path, archs):
    r = {"file": str(path)}
    clang_one(args, root, path, r)
    rc, out, err, secs = run(warplint_cmd(args, root, path, archs),
                             args.timeout, cwd=path.parent)
    r["warplint_rc"] = rc
    r["warplint_seconds"] = secs
    r["warplint_error"] = first_error(err)
    # Exit 2 is a file with compiler errors; a crash or a timeout is ours.
    r["crash_text"] = bool(re.search(
        r"internal error|crashed|PLEASE submit a bug report|Stack dump", err))
    r["internal"] = rc not in (0, 1, 2) or r["crash_text"]
    findings = Counter()
    errors = []
    try:
        doc = json.loads(out) if out.strip() else {}
        errors = doc.get("errors", [])
        for f in doc.get("findings", []):
            findings[f["check"]] += 1
    except json.JSONDecodeError:
        r["internal"] = True
    if errors:
        e = errors[0]
        r["warplint_error"] = (f"{e['file']}:{e['line']}:{e['column']}",
                               e["message"])
    r["warplint_ok"] = not r["internal"] and not errors and rc in (0, 1)
    r["findings"] = dict(findings)
    # nvcc's verdict is for sm_80: a file that fails on some other target
    # (cuda::barrier below sm_70) is also judged on sm_80 alone.
    r["ok_sm80"] = r["warplint_ok"]
    if not r["warplint_ok"] and not r["internal"] and archs != ["sm_80"]:
        rc80, out80, _, _ = run(warplint_cmd(args, root, path, ["sm_80"]),
                                args.timeout, cwd=path.parent)
        try:
            doc = json.loads(out80) if out80.strip() else {}
            r["ok_sm80"] = rc80 in (0, 1) and not doc.get("errors")
        except json.JSONDecodeError:
            r["ok_sm80"] = False
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--warplint", default=str(ROOT / "build/bin/warplint"))
    ap.add_argument("--clang", default="clang++-22")
    ap.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    ap.add_argument("--arch", help="targets, comma-separated (default: all "
                    "of arch-data)")
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--nvcc-verdicts", help="JSON file of nvcc's verdicts")
    ap.add_argument("--run-nvcc", action="store_true",
                    help="compute nvcc's verdicts into --nvcc-verdicts "
                    "and stop")
    ap.add_argument("--results", help="write the raw per-file results here")
    ap.add_argument("--out", help="write the Markdown report here")
    ap.add_argument("--recheck-failed", action="store_true",
                    help="lint again the files of --results that failed and "
                    "that nvcc accepts (after a fix for them)")
    ap.add_argument("--report-only", action="store_true",
                    help="report the files already in --results, lint none")
    args = ap.parse_args()

    sources = list(find_sources(args.dirs))
    args.sdk_version = toolkit_version(args)
    if args.run_nvcc:
        if not args.nvcc_verdicts:
            ap.error("--run-nvcc needs --nvcc-verdicts FILE")
        verdicts = run_nvcc(args, sources)
        print(f"nvcc: {sum(v['ok'] for v in verdicts.values())} of "
              f"{len(verdicts)} accepted", file=sys.stderr)
        return 0

    archs = args.arch.split(",") if args.arch else sorted(
        (p.stem for p in (ROOT / "arch-data").glob("sm_*.json")),
        key=lambda s: int(s[3:]))
    verdicts = {}
    if args.nvcc_verdicts and Path(args.nvcc_verdicts).exists():
        verdicts = json.loads(Path(args.nvcc_verdicts).read_text())
    # --results is kept after each file: a stopped sweep goes on from there.
    done = {}
    if args.results and Path(args.results).exists():
        done = {r["file"]: r for r in json.loads(
            Path(args.results).read_text())}
    if args.recheck_failed:
        def nvcc_accepts(f):
            v = verdicts.get(f) or verdicts.get(_relative_key(f, verdicts))
            return bool(v and v["ok"])
        done = {f: r for f, r in done.items()
                if r["warplint_ok"] or not nvcc_accepts(f)}
    results = [done[str(p)] for _, p in sources if str(p) in done]
    roots = {str(p): root for root, p in sources}
    for r in results:
        r["internal"] = r["warplint_rc"] not in (0, 1, 2) or r.get(
            "crash_text", False)
        if "clang_ok" not in r:  # dropped to be taken again
            clang_one(args, roots[r["file"]], Path(r["file"]), r)
    todo = [] if args.report_only else [
        rp for rp in sources if str(rp[1]) not in done]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for r in pool.map(lambda rp: lint_one(args, *rp, archs), todo):
            tag = "internal" if r["internal"] else (
                "ok" if r["warplint_ok"] else "error")
            print(f"{tag:8} {r['warplint_seconds']:6.2f}s {r['file']}",
                  file=sys.stderr)
            results.append(r)
            if args.results:
                Path(args.results).write_text(json.dumps(results, indent=1))
    for r in results:
        v = verdicts.get(r["file"]) or verdicts.get(
            _relative_key(r["file"], verdicts))
        r["nvcc_ok"] = v["ok"] if v else None
        r["nvcc_error"] = v["first_error"] if v else ""
    report = render(args, archs, results)
    if args.out:
        Path(args.out).write_text(report)
    else:
        print(report)
    return 0


def _relative_key(path, verdicts):
    """Verdicts taken on another machine: match by the path's tail."""
    for k in verdicts:
        for tail in ("cuda-samples/", "llm.c/", "gpu-rodinia/"):
            if tail in k and tail in path and \
                    k.split(tail, 1)[1] == path.split(tail, 1)[1]:
                return k
    return None


def pct(a, b):
    return f"{100.0 * a / b:.1f}%" if b else "n/a"


def render(args, archs, results):
    n = len(results)
    lines = []
    w = lines.append
    w(f"Files: {n} .cu files under {', '.join(args.dirs)}; targets "
      f"{archs[0]}..{archs[-1]} ({len(archs)}), every check.")
    w("")
    failed = [r for r in results if not r["warplint_ok"]]
    internal = [r for r in results if r["internal"]]
    clang_ok = [r for r in results if r["clang_ok"]]
    w(f"- warplint analysed {n - len(failed)} of {n} cleanly; "
      f"{len(failed)} had compiler errors; internal errors: {len(internal)}.")
    w(f"- clang++-22 --cuda-device-only -fsyntax-only accepted "
      f"{len(clang_ok)}; warplint failed "
      f"{sum(1 for r in clang_ok if not r['warplint_ok'])} of those.")
    judged = [r for r in results if r["nvcc_ok"] is not None]
    if judged:
        acc = [r for r in judged if r["nvcc_ok"]]
        good = [r for r in acc if r["warplint_ok"]]
        good80 = [r for r in acc if r.get("ok_sm80", r["warplint_ok"])]
        w(f"- nvcc -c -arch=sm_80 accepted {len(acc)} of {len(judged)}; "
          f"warplint analysed {len(good)} of those cleanly on every target "
          f"({pct(len(good), len(acc))}), {len(good80)} on sm_80, the "
          f"target nvcc was asked for ({pct(len(good80), len(acc))}).")
    w("")
    w("Compiler errors by cause (first error of each file):")
    w("")
    w("| cause | files | nvcc accepts |")
    w("| --- | ---: | ---: |")
    causes = Counter()
    nvcc_causes = Counter()
    for r in failed:
        c = classify(r)
        causes[c] += 1
        if r["nvcc_ok"]:
            nvcc_causes[c] += 1
    for c, k in causes.most_common():
        w(f"| {c} | {k} | {nvcc_causes[c]} |")
    w("")
    if judged:
        w("Files nvcc accepts that warplint does not analyse cleanly:")
        w("")
        for r in acc:
            if not r["warplint_ok"]:
                loc, msg = r["warplint_error"]
                where = (" (clean on sm_80)" if r.get("ok_sm80") else "")
                w(f"- `{_short(r['file'])}`: {msg} ({_short(loc)}){where}")
        w("")
    w("Findings per check:")
    w("")
    w("| check | findings | files |")
    w("| --- | ---: | ---: |")
    total, files = Counter(), Counter()
    for r in results:
        for c, k in r["findings"].items():
            total[c] += k
            files[c] += 1
    for c, k in sorted(total.items(), key=lambda kv: (-kv[1], kv[0])):
        w(f"| {c} | {k} | {files[c]} |")
    w("")
    w("Slowest files (warplint, all targets, against one device-only parse "
      "for sm_80):")
    w("")
    w("| file | warplint s | device parse s | ratio |")
    w("| --- | ---: | ---: | ---: |")
    for r in sorted(results, key=lambda r: -r["warplint_seconds"])[:10]:
        ratio = r["warplint_seconds"] / max(r["clang_seconds"], 1e-3)
        w(f"| `{_short(r['file'])}` | {r['warplint_seconds']:.2f} | "
          f"{r['clang_seconds']:.2f} | {ratio:.1f} |")
    return "\n".join(lines) + "\n"


def _short(p):
    for tail in ("cuda-samples/", "llm.c/"):
        if tail in p:
            return tail + p.split(tail, 1)[1]
    return p


if __name__ == "__main__":
    sys.exit(main())
