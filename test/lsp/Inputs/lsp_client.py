#!/usr/bin/env python3
"""A scripted LSP client for warplint-lsp's lit tests.

    lsp_client.py <server command...> < script

Runs the server and plays the script, one directive per line ('#' starts a
comment; lines of lit directives, "RUN:", "CHECK:" ..., are skipped):

    send <json>             send a message (framed with Content-Length)
    raw <text>              send text as it is (\\r and \\n are escapes):
                            malformed input
    wait-diagnostics <ver>  wait for a publishDiagnostics of the document of
                            the given version ('none': without a version, as
                            after didClose)
    wait-response <id>      wait for the response to request <id>
    apply <id> <n>          apply the edit of action n of response <id> to the
                            document, send it as an incremental didChange of
                            the next version and print the new text
    file <path>             the document the next directives are about

In every json, ${URI} is the document's URI, ${TEXT} its text (as read from
the file, then edited by the didChange messages sent).
Everything the server sends is printed as it arrives, one readable line per
diagnostic and action, so that FileCheck can check it.
"""
import json
import os
import subprocess
import sys
import threading
import time
import urllib.parse

TIMEOUT = 120


def utf16_units(s):
    return len(s.encode("utf-16-le")) // 2


def offset_of(text, pos):
    """Index in text of an LSP position (UTF-16 code units)."""
    lines = text.split("\n")
    line = pos["line"]
    if line >= len(lines):
        return len(text)
    start = sum(len(l) + 1 for l in lines[:line])
    units = 0
    i = 0
    content = lines[line]
    while i < len(content) and units < pos["character"]:
        units += utf16_units(content[i])
        i += 1
    return start + i


class Client:
    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE)
        self.cond = threading.Condition()
        self.diagnostics = []  # versions received
        self.responses = {}
        self.uri = self.text = None
        self.version = 0
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    with self.cond:
                        self.cond.notify_all()
                    return
                line = line.decode().strip()
                if not line:
                    break
                if line.lower().startswith("content-length:"):
                    length = int(line.split(":")[1])
            msg = json.loads(out.read(length))
            self.show(msg)
            with self.cond:
                if msg.get("method") == "textDocument/publishDiagnostics":
                    self.diagnostics.append((msg["params"]["uri"],
                                             msg["params"].get("version", "none")))
                elif "id" in msg and "method" not in msg:
                    self.responses[msg["id"]] = msg
                self.cond.notify_all()

    def show(self, msg):
        if msg.get("method") == "textDocument/publishDiagnostics":
            p = msg["params"]
            print("diagnostics %s version=%s count=%d" % (
                os.path.basename(urllib.parse.unquote(p["uri"])),
                p.get("version", "none"), len(p["diagnostics"])))
            for d in p["diagnostics"]:
                print("  " + describe_diag(d))
        elif "method" in msg:
            print("notification %s %s" % (msg["method"], json.dumps(msg.get("params"), sort_keys=True)))
        elif "error" in msg:
            print("error id=%s code=%d: %s" % (msg["id"], msg["error"]["code"], msg["error"]["message"]))
        else:
            result = msg["result"]
            if isinstance(result, list):
                print("response id=%s actions=%d" % (msg["id"], len(result)))
                for a in result:
                    print("  action %r kind=%s preferred=%s diagnostics=%s" % (
                        a["title"], a.get("kind"), a.get("isPreferred", False),
                        ",".join(d["code"] for d in a.get("diagnostics", []))))
                    for uri, edits in edits_of(a["edit"]):
                        for e in edits:
                            print("    edit %s %s %s" % (
                                os.path.basename(uri), span(e["range"]),
                                json.dumps(e["newText"])))
            else:
                print("response id=%s %s" % (msg["id"], json.dumps(result, sort_keys=True)))
        sys.stdout.flush()

    def send_text(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, obj):
        body = json.dumps(obj).encode()
        self.send_text(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def wait(self, pred, what):
        deadline = time.time() + TIMEOUT
        with self.cond:
            while not pred():
                if self.proc.poll() is not None and not self.reader.is_alive():
                    sys.exit("server exited while waiting for " + what)
                left = deadline - time.time()
                if left <= 0:
                    sys.exit("timed out waiting for " + what)
                self.cond.wait(left)

    def apply(self, rid, index):
        action = self.responses[rid]["result"][index]
        changes = []
        for uri, edits in edits_of(action["edit"]):
            assert uri == self.uri, "edit of another file: " + uri
            # Each edit refers to the text before any of them: the last first.
            for e in sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]), reverse=True):
                start = offset_of(self.text, e["range"]["start"])
                end = offset_of(self.text, e["range"]["end"])
                self.text = self.text[:start] + e["newText"] + self.text[end:]
                changes.append({"range": e["range"], "text": e["newText"]})
        self.version += 1
        self.send({"jsonrpc": "2.0", "method": "textDocument/didChange",
                   "params": {"textDocument": {"uri": self.uri, "version": self.version},
                              "contentChanges": changes}})
        print("applied %r, version %d:" % (action["title"], self.version))
        for line in self.text.splitlines():
            print("  | " + line)
        sys.stdout.flush()


def span(r):
    return "%d:%d-%d:%d" % (r["start"]["line"] + 1, r["start"]["character"] + 1,
                            r["end"]["line"] + 1, r["end"]["character"] + 1)


def describe_diag(d):
    sev = {1: "error", 2: "warning", 3: "information", 4: "hint"}[d["severity"]]
    s = "%s %s [%s] %s" % (span(d["range"]), sev, d.get("code"), d["message"])
    if "codeDescription" in d:
        s += " <%s>" % d["codeDescription"]["href"].rsplit("/", 1)[-1]
    for r in d.get("relatedInformation", []):
        s += "\n    related %s %s: %s" % (
            os.path.basename(urllib.parse.unquote(r["location"]["uri"])),
            span(r["location"]["range"]), r["message"])
    return s


def edits_of(edit):
    if "documentChanges" in edit:
        return [(c["textDocument"]["uri"], c["edits"]) for c in edit["documentChanges"]]
    return list(edit.get("changes", {}).items())


def main():
    client = Client(sys.argv[1:])
    for line in sys.stdin:
        line = line.strip()
        word, _, rest = line.partition(" ")
        if not line or line.startswith("#") or word.endswith(":"):
            continue  # comments, and the lit test's RUN: and CHECK: lines
        rest = rest.replace("${URI}", client.uri or "")
        rest = rest.replace("${TEXT}", json.dumps(client.text or "")[1:-1])
        if word == "file":
            path = os.path.abspath(rest)
            client.uri = "file://" + urllib.parse.quote(path)
            with open(path, encoding="utf-8", newline="") as f:
                client.text = f.read()
        elif word == "send":
            msg = json.loads(rest)
            params = msg.get("params", {})
            if msg.get("method") in ("textDocument/didOpen", "textDocument/didChange"):
                client.version = params["textDocument"]["version"]
            if msg.get("method") == "textDocument/didChange":
                for c in params["contentChanges"]:
                    if "range" in c:
                        start = offset_of(client.text, c["range"]["start"])
                        end = offset_of(client.text, c["range"]["end"])
                        client.text = client.text[:start] + c["text"] + client.text[end:]
                    else:
                        client.text = c["text"]
            client.send(msg)
        elif word == "raw":
            client.send_text(rest.replace("\\r", "\r").replace("\\n", "\n").encode())
        elif word == "wait-diagnostics":
            want = rest if rest == "none" else int(rest)
            key = (client.uri, want)
            client.wait(lambda: key in client.diagnostics, "diagnostics " + rest)
        elif word == "wait-response":
            rid = int(rest)
            client.wait(lambda: rid in client.responses, "response " + rest)
        elif word == "apply":
            rid, index = rest.split()
            client.apply(int(rid), int(index))
        else:
            sys.exit("unknown directive: " + word)
    client.proc.stdin.close()
    status = client.proc.wait(timeout=TIMEOUT)
    client.reader.join(timeout=TIMEOUT)
    print("exit status %d" % status)


if __name__ == "__main__":
    main()
