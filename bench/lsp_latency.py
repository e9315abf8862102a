#!/usr/bin/env python3
"""Latency of warplint-lsp: from an edit to the diagnostics of its version.

Opens the file, waits for its first diagnostics (a cold start), then makes N
edits one at a time (a comment line added at the top and removed again, so
that every line below moves and the preamble region changes, as when you add
an #include; or --edit=body: a character typed in the first kernel's body, as when
you type in a kernel) and times each from didChange to the
publishDiagnostics of that version, with --debounce-ms=0. Prints the cold
start, the first edit, and the median, worst and fastest edit (the first
included).

    python3 bench/lsp_latency.py [--edits N] [--edit top|body] [--server-arg=...] file.cu
"""
import argparse
import json
import os
import statistics
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def add_server_options(ap):
    """The file and the server's options, as both LSP benches take them."""
    ap.add_argument("file")
    ap.add_argument("--server", default=os.path.join(ROOT, "build/bin/warplint-lsp"))
    ap.add_argument("--server-arg", action="append", default=[])
    ap.add_argument("--server-log", metavar="FILE",
                    help="keep the server's log (--log=info: each analysis, "
                         "its time, its preamble use, focused or full) in FILE")


class Server:
    """warplint-lsp with --debounce-ms=0, initialized."""

    def __init__(self, server, server_args, log=None):
        self.log = open(log, "w") if log else None
        self.p = subprocess.Popen(
            [server, "--debounce-ms=0",
             "--log=info" if log else "--log=error"] + server_args,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self.log or subprocess.DEVNULL)
        self.send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": {"capabilities": {}}})
        self.recv()

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def recv(self):
        length = None
        while True:
            line = self.p.stdout.readline().decode().strip()
            if not line:
                break
            if line.lower().startswith("content-length:"):
                length = int(line.split(":")[1])
        return json.loads(self.p.stdout.read(length))

    def open(self, uri, text):
        self.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                   "params": {"textDocument": {"uri": uri, "languageId": "cuda",
                                               "version": 1, "text": text}}})

    def change(self, uri, version, change):
        self.send({"jsonrpc": "2.0", "method": "textDocument/didChange",
                   "params": {"textDocument": {"uri": uri, "version": version},
                              "contentChanges": [change]}})

    def exit(self):
        self.send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        self.send({"jsonrpc": "2.0", "method": "exit"})
        self.p.wait()

    def diagnostics_of(self, version):
        while True:
            m = self.recv()
            if (m.get("method") == "textDocument/publishDiagnostics"
                    and m["params"].get("version") == version):
                return m["params"]["diagnostics"]


SEVERITY = {1: "error", 2: "warning", 3: "note", 4: "note"}


def apply_change(text, change):
    """text with an LSP range change applied (ASCII text: UTF-16 = bytes)."""
    lines = text.split("\n")
    def offset(pos):
        return sum(len(l) + 1 for l in lines[:pos["line"]]) + pos["character"]
    r = change["range"]
    return text[:offset(r["start"])] + change["text"] + text[offset(r["end"]):]


def cli_findings(cli, path, source):
    """The command line's findings of the file's text (line, column, check,
    severity), linted as a file beside it, so that its includes resolve."""
    d = os.path.dirname(path)
    tmp = os.path.join(d, ".lsp_latency_%d_%s" % (os.getpid(), os.path.basename(path)))
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(source)
        out = subprocess.run([cli, "--format=json", "--arch=sm_80", tmp, "--"],
                             capture_output=True, text=True).stdout
    finally:
        os.unlink(tmp)
    found = json.loads(out)
    return {(f["line"], f["column"], f["check"], f["severity"])
            for f in found["findings"] if os.path.basename(f["file"]) == os.path.basename(tmp)} | \
           {(e["line"], e["column"], "clang-diagnostic-error", "error")
            for e in found.get("errors", []) if e.get("line")}


def main():
    ap = argparse.ArgumentParser()
    add_server_options(ap)
    ap.add_argument("--edits", type=int, default=10)
    ap.add_argument("--edit", choices=["top", "body"], default="body")
    ap.add_argument("--compare-cli", action="store_true",
                    help="check that the diagnostics after the open and after "
                         "the last edit are the command line's on that text")
    ap.add_argument("--cli", default=os.path.join(ROOT, "build/bin/warplint"))
    args = ap.parse_args()
    path = os.path.abspath(args.file)
    uri = "file://" + path
    text = open(path, encoding="utf-8").read()
    s = Server(args.server, args.server_arg, args.server_log)
    start = time.perf_counter()
    s.open(uri, text)
    diags = s.diagnostics_of(1)
    cold = time.perf_counter() - start
    lines = text.split("\n")
    # A body edit types in the first kernel's body: the line after the one
    # that opens it.
    first = next(i for i, l in enumerate(lines) if "__global__" in l)
    last = next(i for i in range(first, len(lines))
                if lines[i].rstrip().endswith("{")) + 1
    final = diags
    times = []
    # The first edit is timed too: the server builds the preamble in the
    # background from the open, and the first edit may wait for the rest of
    # that build.
    for i in range(args.edits):
        version = i + 2
        if args.edit == "top":
            change = ({"range": {"start": {"line": 0, "character": 0},
                                 "end": {"line": 0, "character": 0}},
                       "text": "// edit\n"} if i % 2 == 0 else
                      {"range": {"start": {"line": 0, "character": 0},
                                 "end": {"line": 1, "character": 0}},
                       "text": ""})
        else:
            # Typing: every version differs from all before it.
            change = {"range": {"start": {"line": last, "character": 0},
                                "end": {"line": last, "character": 0}},
                      "text": " "}
        t0 = time.perf_counter()
        s.change(uri, version, change)
        final = s.diagnostics_of(version)
        times.append(time.perf_counter() - t0)
        text = apply_change(text, change)
    s.exit()
    if args.compare_cli:
        for when, published, source in (("open", diags, open(path, encoding="utf-8").read()),
                                        ("last edit", final, text)):
            cli = cli_findings(args.cli, path, source)
            lsp = {(d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1,
                    d.get("code", ""), SEVERITY[d["severity"]]) for d in published}
            print("%s: %d findings, %s" % (
                when, len(lsp), "the command line's" if lsp == cli else
                "NOT the command line's: only LSP %s, only CLI %s" % (
                    sorted(lsp - cli), sorted(cli - lsp))))
    print("%s: %d diagnostics; open %.3f s; edit (%s, %d): first %.3f s, "
          "median %.3f s, worst %.3f s, fastest %.3f s" % (
              os.path.basename(path), len(diags), cold, args.edit, len(times),
              times[0], statistics.median(times), max(times), min(times)))


if __name__ == "__main__":
    main()
