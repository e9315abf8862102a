"""Prints the lines of a CUDA source whose PTX (nvcc -O3) holds FP64
instructions, one 'f64 on line N' each: the ground truth of
arith-fp64-promotion, read from the .loc line information of nvcc -lineinfo.

usage: ptx_fp64_lines.py <nvcc> <source.cu> [nvcc flags...]
"""
import os
import re
import subprocess
import sys
import tempfile

nvcc, source, flags = sys.argv[1], sys.argv[2], sys.argv[3:]
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "out.ptx")
    subprocess.run([nvcc, "-ptx", "-O3", "-lineinfo", "-arch=sm_80",
                    "-std=c++17", "--expt-relaxed-constexpr", "-o", out,
                    source] + flags, check=True)
    with open(out) as f:
        ptx = f.read()

files = {m.group(1): m.group(2)
         for m in re.finditer(r'^\s*\.file\s+(\d+)\s+"([^"]+)"', ptx, re.M)}
fp64 = re.compile(r"\b(add|sub|mul|div|fma|sqrt|rcp|min|max|neg|abs|setp"
                  r"|selp|cvt)(\.\w+)*\.f64\b")
lines, where = set(), None
for text in ptx.splitlines():
    if re.match(r"\s*(\}|\.visible|\.entry|\.func|\.weak)", text):
        where = None  # a new function: no line until its first .loc
        continue
    loc = re.match(r"\s*\.loc\s+(\d+)\s+(\d+)", text)
    if loc:
        where = loc.groups()
        continue
    if where and fp64.search(text.split("//")[0]) and \
            os.path.basename(files.get(where[0], "")) == \
            os.path.basename(source):
        lines.add(int(where[1]))
for n in sorted(lines):
    print(f"f64 on line {n}")
