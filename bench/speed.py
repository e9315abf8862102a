#!/usr/bin/env python3
"""Times warplint against the compiler's own parse of the same files.

For each file: warplint (all checks, one target) with its IR layer (the
device IR compiled in process for divergence-barrier, the default) and
without it (--ir-layer=false), warplint with an empty ptxas cache on every
run ("cold": launch-occupancy's nvcc runs beside the parse, the first lint of
a file; the other columns find its answer cached, as every later lint does), clang++ --cuda-device-only -fsyntax-only with
the same flags (one device parse: the floor warplint builds on) and plain
clang++ -fsyntax-only (host + device, what a build's syntax check costs).
Prints the fastest of N runs (the least disturbed by whatever else the
machine does) and the ratios to the device parse.

    python3 bench/speed.py [--runs N] [--arch sm_80] [--cpu] [files...]   (default: examples/*.cu)
"""
import argparse
import glob
import os
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def best_time(cmd, runs, cpu=False, cold=False):
    """Fastest of runs: wall-clock seconds, or with cpu=True the CPU seconds
    the command used and its children (nvcc) used (steadier on a machine
    busy with other work). cold: a new, empty cache directory each run."""
    clock = child_cpu if cpu else time.perf_counter
    times = []
    for _ in range(runs):
        env = dict(os.environ)
        with tempfile.TemporaryDirectory() as cache:
            if cold:
                env["XDG_CACHE_HOME"] = cache
            start = clock()
            subprocess.run(cmd, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, env=env)
            times.append(clock() - start)
    return min(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--arch", default="sm_80")
    ap.add_argument("--cuda-path", default="/usr/local/cuda")
    ap.add_argument("--warplint", default=os.path.join(ROOT, "build/bin/warplint"))
    ap.add_argument("--clang", default="clang++-22")
    ap.add_argument("--cpu", action="store_true",
                    help="CPU time of each command instead of wall-clock time")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    files = args.files or sorted(glob.glob(os.path.join(ROOT, "examples/*.cu")))

    cuda = args.cuda_path
    common = ["--cuda-path=" + cuda, "-isystem", os.path.join(cuda, "include/cccl"),
              "-nogpulib", "-Wno-unknown-cuda-version", "--no-cuda-version-check",
              "-Xclang", "-target-sdk-version=13.0", "--cuda-gpu-arch=" + args.arch]
    device_only = [args.clang, "-x", "cuda", "--cuda-device-only", "-fsyntax-only"] + common
    both = [args.clang, "-x", "cuda", "-fsyntax-only"] + common
    lint = [args.warplint, "--quiet", "--arch=" + args.arch, "--cuda-path=" + cuda]
    no_ir = lint + ["--ir-layer=false"]

    print(f"{'file':28} {'IR on':>7} {'IR off':>7} {'cold':>7} {'device':>7}"
          f" {'host+dev':>8} {'on/dev':>7} {'off/dev':>7} {'cold/dev':>8}"
          f" {'on/both':>7}")
    total = [0.0] * 5
    for f in files:
        t = [best_time(lint + [f, "--"], args.runs, args.cpu),
             best_time(no_ir + [f, "--"], args.runs, args.cpu),
             best_time(lint + [f, "--"], args.runs, args.cpu, cold=True),
             best_time(device_only + [f], args.runs, args.cpu),
             best_time(both + [f], args.runs, args.cpu)]
        total = [a + b for a, b in zip(total, t)]
        report(os.path.basename(f), t)
    report("total", total)


def report(name, t):
    on, off, cold, dev, both = t
    print(f"{name:28} {on:7.3f} {off:7.3f} {cold:7.3f} {dev:7.3f} {both:8.3f}"
          f" {on / dev:7.2f} {off / dev:7.2f} {cold / dev:8.2f}"
          f" {on / both:7.2f}")


if __name__ == "__main__":
    sys.exit(main())
