#!/usr/bin/env python3
"""The JSON findings of every lit input and example, one file each, so that
a refactoring can show its outputs unchanged (diff -r two snapshots).

    python3 bench/snapshot.py --warplint build/bin/warplint OUT_DIR

Each input is linted with every check, for sm_60, sm_80 and sm_90, with the
IR layer on; file names in the output are relative to the repository.
"""
import argparse
import concurrent.futures
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def inputs():
    for top in ("examples", "test"):
        for p in sorted((ROOT / top).rglob("*.cu")):
            yield p.relative_to(ROOT)


def lint(warplint, rel, out_dir):
    cmd = [warplint, "--format=json", "--checks=*", "--arch=sm_60,sm_80,sm_90",
           str(rel), "--", "-std=c++17"]
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True,
                       timeout=300)
    name = str(rel).replace("/", "__") + ".json"
    (out_dir / name).write_text(
        "exit %d\n%s" % (r.returncode, r.stdout))
    return rel, r.returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--warplint", default=str(ROOT / "build/bin/warplint"))
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("out")
    a = ap.parse_args()
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    warplint = str(pathlib.Path(a.warplint).resolve())
    with concurrent.futures.ThreadPoolExecutor(a.j) as pool:
        jobs = [pool.submit(lint, warplint, rel, out) for rel in inputs()]
        for j in jobs:
            rel, rc = j.result()
            print("%-70s exit %d" % (rel, rc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
