#!/usr/bin/env python3
"""Memory of warplint-lsp over many edits of one file.

Opens the file, then makes N edits one at a time inside the body of the last
kernel (a statement with a new name inserted at the top of the body, then
removed again: every version differs from the one before), waits for the
diagnostics of each version (--debounce-ms=0: every version is analysed),
and samples the server's resident set (VmRSS of /proc/<pid>/status) after
the open and after every --every edits. Prints the series and the growth
per edit: the least-squares slope over the second half of the samples (the
first half holds the warm-up: the preamble is built at the second parse,
allocators reach their working size). The compile database is the file's
directory's (none there: the default flags) unless --server-arg names one:
in a checkout with build/, the server would otherwise find warplint's own
build/compile_commands.json and give the file a C++ neighbour's command.

    python3 bench/lsp_memory.py [--edits 500] [--every 25] [--server-arg=...] file.cu
"""
import argparse
import os
import re
import time

from lsp_latency import Server, add_server_options


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS for pid %d" % pid)


def body_line(lines):
    """The 0-based line after the opening brace of the last kernel."""
    kernel = max(i for i, l in enumerate(lines) if re.match(r"\s*__global__\b", l))
    for i in range(kernel, len(lines)):
        if lines[i].rstrip().endswith("{"):
            return i + 1
    raise RuntimeError("no kernel body found")


def slope(points):
    """Least-squares slope of (x, y) points."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx


def main():
    ap = argparse.ArgumentParser()
    add_server_options(ap)
    ap.add_argument("--edits", type=int, default=500)
    ap.add_argument("--every", type=int, default=25)
    args = ap.parse_args()
    path = os.path.abspath(args.file)
    uri = "file://" + path
    text = open(path, encoding="utf-8").read()
    line = body_line(text.split("\n"))
    server_args = args.server_arg
    if not any(a.startswith("--compile-commands-dir") for a in server_args):
        server_args = server_args + ["--compile-commands-dir=" + os.path.dirname(path)]
    s = Server(args.server, server_args)
    s.open(uri, text)
    diags = s.diagnostics_of(1)
    samples = [(0, rss_kb(s.p.pid))]
    start = time.perf_counter()
    for i in range(args.edits):
        version = i + 2
        at = {"line": line, "character": 0}
        if i % 2 == 0:
            change = {"range": {"start": at, "end": at},
                      "text": "  int edit%d = %d; (void)edit%d;\n" % (i, i, i)}
        else:
            change = {"range": {"start": at, "end": {"line": line + 1, "character": 0}},
                      "text": ""}
        s.change(uri, version, change)
        s.diagnostics_of(version)
        if (i + 1) % args.every == 0:
            samples.append((i + 1, rss_kb(s.p.pid)))
    elapsed = time.perf_counter() - start
    s.exit()
    print("%s: %d diagnostics, %d edits in %.0f s (%.3f s each), VmRSS in MB:"
          % (os.path.basename(path), len(diags), args.edits, elapsed,
             elapsed / max(args.edits, 1)))
    print("  " + " ".join("%d:%.1f" % (n, kb / 1024) for n, kb in samples))
    half = samples[len(samples) // 2:]
    if len(half) >= 2:
        print("after the open %.1f MB, at the end %.1f MB, peak %.1f MB; "
              "slope over edits %d-%d: %+.2f KB per edit"
              % (samples[0][1] / 1024, samples[-1][1] / 1024,
                 max(kb for _, kb in samples) / 1024, half[0][0], half[-1][0],
                 slope(half)))


if __name__ == "__main__":
    main()
