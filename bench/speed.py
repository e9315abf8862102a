#!/usr/bin/env python3
"""Times warplint against the compiler's own parse of the same files.

For each file: warplint (all checks, one target), clang++ --cuda-device-only
-fsyntax-only with the same flags (one device parse: the floor warplint
builds on) and plain clang++ -fsyntax-only (host + device, what a build's
syntax check costs). Prints the fastest of N runs (the least disturbed by
whatever else the machine does) and the ratios.

    python3 bench/speed.py [--runs N] [--arch sm_80] [files...]   (default: examples/*.cu)
"""
import argparse
import glob
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def best_time(cmd, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--arch", default="sm_80")
    ap.add_argument("--cuda-path", default="/usr/local/cuda")
    ap.add_argument("--warplint", default=os.path.join(ROOT, "build/bin/warplint"))
    ap.add_argument("--clang", default="clang++-22")
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

    print(f"{'file':32} {'warplint':>9} {'device':>9} {'host+dev':>9} {'ratio/dev':>9} {'ratio/both':>10}")
    tw = td = tb = 0.0
    for f in files:
        w = best_time(lint + [f, "--"], args.runs)
        d = best_time(device_only + [f], args.runs)
        b = best_time(both + [f], args.runs)
        tw, td, tb = tw + w, td + d, tb + b
        print(f"{os.path.basename(f):32} {w:9.3f} {d:9.3f} {b:9.3f} {w / d:9.2f} {w / b:10.2f}")
    print(f"{'total':32} {tw:9.3f} {td:9.3f} {tb:9.3f} {tw / td:9.2f} {tb and tw / tb:10.2f}")


if __name__ == "__main__":
    sys.exit(main())
