#!/usr/bin/env python3
"""Lints the development corpus (bench/realcode/corpus.tsv) with warplint.

The corpus is real public CUDA code, split once into a "tune" half (its
findings may be read while a check is changed) and a "measure" half (read
only after a change is done, to report precision); docs/accuracy.md, "The
development corpus (real code)", says why and how.

Each project is extracted as ROOT/<name> at the commit of its row:

    python3 bench/realcode/lint_corpus.py --extract --mirror MIRROR --root ROOT
    python3 bench/realcode/lint_corpus.py --extract --clone --root ROOT

--mirror names a directory of bare git repositories (MIRROR/owner+name/repo,
MIRROR/owner+name, MIRROR/owner/name or MIRROR/owner/name.git); --clone
fetches the commit from GitHub instead. Blobs a snapshot lacks (large files)
are skipped and counted.

Then each listed file is linted on its own, from the project's root:

    warplint --format=json --arch=sm_80 FILE -- FLAGS

    python3 bench/realcode/lint_corpus.py --root ROOT --half tune --out tune.jsonl

The output has one JSON line per finding ("type": "finding": project, file
relative to the project root, line, column, check, severity, message, and
"via", the linted file that reported it; a header's finding reached from
several files is written once) and one per project ("type": "summary": files
linted, parsed ok, exit 2 with the first error of each, timeouts, findings
per check). A summary is printed on stdout.

The measuring half stays unread: its findings (and its counts per check) are
written and printed only when --half measure is asked for explicitly; with
--half all its projects are linted for the parse summary alone.
"""

import argparse
import collections
import glob
import json
import os
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.path.join(HERE, "corpus.tsv")
COLUMNS = ["name", "repo", "commit", "half", "files", "flags", "note"]


def tsv_rows(path, columns):
    """(line number, cells) of each row of a tab-separated file whose first
    row names the columns (comments, blank lines and that row skipped)."""
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cells = line.split("\t")
            if cells[0] != columns[0]:
                yield n, cells


def read_corpus(path=CORPUS):
    """The rows of corpus.tsv as dicts (comments and the header skipped)."""
    rows = []
    for _, cells in tsv_rows(path, COLUMNS):
        cells += [""] * (len(COLUMNS) - len(cells))
        row = dict(zip(COLUMNS, cells))
        if row["half"] not in ("tune", "measure"):
            raise SystemExit(f"{path}: {row['name']}: half must be tune or measure")
        rows.append(row)
    return rows


def select(rows, half, names=None):
    """The rows of one half (or all), optionally only the named projects."""
    out = [r for r in rows if half == "all" or r["half"] == half]
    if names:
        unknown = set(names) - {r["name"] for r in rows}
        if unknown:
            raise SystemExit("unknown projects: " + ", ".join(sorted(unknown)))
        out = [r for r in out if r["name"] in names]
    return out


def expand_files(project_dir, files_spec, max_files):
    """The files a row lists: each glob in order, its matches sorted, '!'
    globs removing what they match, the first max_files distinct ones."""
    def matches(pattern):
        found = glob.glob(os.path.join(glob.escape(project_dir), pattern), recursive=True)
        return sorted(os.path.relpath(p, project_dir) for p in found if os.path.isfile(p))

    specs = [s.strip() for s in files_spec.split(";") if s.strip()]
    excluded = set()
    for s in specs:
        if s.startswith("!"):
            excluded.update(matches(s[1:]))
    chosen = []
    for s in specs:
        if s.startswith("!"):
            continue
        for p in matches(s):
            if p not in excluded and p not in chosen:
                chosen.append(p)
    return chosen[:max_files]


# --- extraction -------------------------------------------------------------

def find_mirror(mirror, repo):
    """A bare git directory holding repo under the mirror directory, or None."""
    owner, name = repo.split("/", 1)
    for cand in (os.path.join(mirror, f"{owner}+{name}", "repo"),
                 os.path.join(mirror, f"{owner}+{name}"),
                 os.path.join(mirror, owner, name),
                 os.path.join(mirror, owner, name + ".git"),
                 os.path.join(mirror, name)):
        if os.path.isdir(cand) and subprocess.run(
                ["git", "--git-dir", cand, "rev-parse", "--git-dir"],
                capture_output=True).returncode == 0:
            return cand
    return None


def clone(repo, commit, dest_git):
    """Fetches one commit of a GitHub repository into a bare git directory."""
    if not os.path.isdir(dest_git):
        subprocess.run(["git", "init", "-q", "--bare", dest_git], check=True)
    subprocess.run(["git", "--git-dir", dest_git, "fetch", "-q", "--depth", "1",
                    f"https://github.com/{repo}", commit], check=True)
    return dest_git


def extract(gitdir, commit, dest):
    """Writes the tree of commit into dest (plain files, symlinks, modes),
    skipping blobs the git directory lacks. Returns (files, missing)."""
    ls = subprocess.run(["git", "--git-dir", gitdir, "ls-tree", "-r", "-z", "--full-tree", commit],
                        capture_output=True, check=True).stdout
    entries = []
    for rec in ls.split(b"\0"):
        if not rec:
            continue
        meta, path = rec.split(b"\t", 1)
        mode, kind, sha = meta.split(b" ")
        if kind == b"blob":
            entries.append((mode.decode(), sha, os.fsdecode(path)))
    cat = subprocess.Popen(["git", "--git-dir", gitdir, "cat-file", "--batch"],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    missing = 0
    for mode, sha, path in entries:
        cat.stdin.write(sha + b"\n")
        cat.stdin.flush()
        header = cat.stdout.readline().split()
        if len(header) < 3 or header[1] == b"missing":
            missing += 1
            continue
        data = cat.stdout.read(int(header[2]))
        cat.stdout.read(1)
        out = os.path.join(dest, path)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        if os.path.lexists(out):
            os.remove(out)
        if mode == "120000":
            os.symlink(os.fsdecode(data), out)
        else:
            with open(out, "wb") as f:
                f.write(data)
            if mode == "100755":
                os.chmod(out, 0o755)
    cat.stdin.close()
    cat.wait()
    return len(entries), missing


def extract_all(rows, root, mirror, use_clone):
    """Extracts every row into root/<name>; a project already there at the
    same commit (root/<name>/.corpus-commit) is left as it is."""
    os.makedirs(root, exist_ok=True)
    status = 0
    for r in rows:
        dest = os.path.join(root, r["name"])
        stamp = os.path.join(dest, ".corpus-commit")
        if os.path.exists(stamp) and open(stamp).read().strip() == r["commit"]:
            print(f"{r['name']}: already at {r['commit'][:12]}")
            continue
        gitdir = find_mirror(mirror, r["repo"]) if mirror else None
        if gitdir is None and use_clone:
            gitdir = clone(r["repo"], r["commit"], os.path.join(root, ".git-cache", r["name"] + ".git"))
        if gitdir is None:
            print(f"{r['name']}: {r['repo']} not found (give --mirror or --clone)", file=sys.stderr)
            status = 1
            continue
        files, missing = extract(gitdir, r["commit"], dest)
        with open(stamp, "w") as f:
            f.write(r["commit"] + "\n")
        print(f"{r['name']}: {files} files at {r['commit'][:12]}"
              + (f" ({missing} blobs absent from the snapshot, skipped)" if missing else ""))
    return status


# --- linting ----------------------------------------------------------------

def lint_file(warplint, arch, project_dir, rel, flags, timeout, checks=None):
    """Runs warplint on one file from the project's root. Returns
    (status, findings, first_error): status is the exit code, or "timeout",
    or "no-json" when stdout held no JSON document."""
    cmd = ([warplint, "--format=json", f"--arch={arch}"]
           + ([f"--checks={checks}"] if checks else []) + [rel, "--"] + flags)
    for attempt in range(30):
        try:
            p = subprocess.run(cmd, cwd=project_dir, capture_output=True, text=True,
                               errors="replace", timeout=timeout)
            break
        except subprocess.TimeoutExpired:
            return "timeout", [], f"no result in {timeout} s"
        except OSError as e:  # the binary is being rebuilt: wait for it
            if attempt == 29:
                return "no-run", [], str(e)
            time.sleep(20)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        tail = p.stderr.strip().splitlines()
        return "no-json", [], tail[-1] if tail else f"exit {p.returncode}"
    err = ""
    if doc.get("errors"):
        e = doc["errors"][0]
        err = f"{e.get('file', '')}:{e.get('line', '')}: {e.get('message', '')}"
    elif p.returncode == 2:
        tail = p.stderr.strip().splitlines()
        err = tail[-1] if tail else ""
    return p.returncode, doc.get("findings", []), err


def normalise(project_dir, path):
    """A finding's file relative to the project root (absolute when outside)."""
    full = os.path.normpath(os.path.join(project_dir, path))
    rel = os.path.relpath(full, project_dir)
    return full if rel.startswith("..") else rel


def lint_project(row, root, warplint, arch, timeout, max_files, log=None, checks=None):
    """Lints one project's files. Returns (findings, summary); findings are
    deduplicated on (file, line, column, check, message)."""
    project_dir = os.path.join(root, row["name"])
    flags = shlex.split(row["flags"])
    files = expand_files(project_dir, row["files"], max_files)
    seen = {}
    summary = {"type": "summary", "project": row["name"], "half": row["half"],
               "commit": row["commit"], "files": len(files), "ok": 0, "exit2": 0,
               "timeout": 0, "failures": [], "seconds": 0.0}
    if not os.path.isdir(project_dir):
        summary["failures"].append({"file": "", "status": "missing",
                                    "error": "not extracted (run with --extract)"})
        return [], summary
    try:
        summary["warplint_mtime"] = time.strftime(
            "%Y-%m-%dT%H:%M:%S", time.localtime(os.path.getmtime(warplint)))
    except OSError:
        pass
    t0 = time.perf_counter()
    for rel in files:
        status, findings, err = lint_file(warplint, arch, project_dir, rel, flags, timeout, checks)
        if status in (0, 1):
            summary["ok"] += 1
        elif status == "timeout":
            summary["timeout"] += 1
        else:
            summary["exit2"] += 1
        if status not in (0, 1):
            summary["failures"].append({"file": rel, "status": status, "error": err})
        if log:
            log(f"  {row['name']}/{rel}: {status}")
        for f in findings:
            fp = normalise(project_dir, f.get("file", rel))
            key = (fp, f.get("line"), f.get("column"), f.get("check"), f.get("message"))
            if key not in seen:
                seen[key] = {"type": "finding", "project": row["name"], "half": row["half"],
                             "file": fp, "line": f.get("line"), "column": f.get("column"),
                             "check": f.get("check"), "severity": f.get("severity"),
                             "message": f.get("message"), "via": rel}
    summary["seconds"] = round(time.perf_counter() - t0, 1)
    findings = sorted(seen.values(), key=lambda f: (f["file"], f["line"] or 0,
                                                    f["column"] or 0, f["check"] or ""))
    summary["findings_per_check"] = dict(sorted(collections.Counter(
        f["check"] for f in findings).items()))
    return findings, summary


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", required=True, help="directory holding the projects as ROOT/<name>")
    ap.add_argument("--half", choices=["tune", "measure", "all"], default="tune")
    ap.add_argument("--out", help="JSON lines written here (findings, then summaries)")
    ap.add_argument("--project", action="append", help="only this project (repeatable)")
    ap.add_argument("--corpus", default=CORPUS)
    ap.add_argument("--warplint", default=os.path.join(ROOT, "build/bin/warplint"))
    ap.add_argument("--arch", default="sm_80")
    ap.add_argument("--checks", help="warplint's --checks (default: its own)")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per file")
    ap.add_argument("--max-files", type=int, default=20)
    ap.add_argument("--extract", action="store_true", help="extract the projects, then stop")
    ap.add_argument("--mirror", help="directory of bare git repositories (with --extract)")
    ap.add_argument("--clone", action="store_true", help="fetch from GitHub what --mirror lacks")
    ap.add_argument("--verbose", action="store_true", help="print each file's exit status")
    args = ap.parse_args()

    rows = select(read_corpus(args.corpus), args.half, args.project)
    if args.extract:
        return extract_all(rows, args.root, args.mirror, args.clone)

    show_measure = args.half == "measure"
    log = (lambda s: print(s, flush=True)) if args.verbose else None
    out = open(args.out, "w", encoding="utf-8") if args.out else None
    totals = collections.Counter()
    for row in rows:
        findings, summary = lint_project(row, os.path.abspath(args.root), args.warplint,
                                         args.arch, args.timeout, args.max_files, log,
                                         args.checks)
        hidden = row["half"] == "measure" and not show_measure
        if hidden:
            findings = []
            summary.pop("findings_per_check")
            summary["findings_hidden"] = True
        else:
            totals.update(summary["findings_per_check"])
        if out:
            for f in findings:
                out.write(json.dumps(f) + "\n")
            out.write(json.dumps(summary) + "\n")
            out.flush()
        print(f"{row['name']} ({row['half']}): {summary['files']} files, {summary['ok']} parsed,"
              f" {summary['exit2']} exit 2, {summary['timeout']} timeouts,"
              f" {summary['seconds']} s", flush=True)
        for fail in summary["failures"]:
            print(f"    {fail['file']}: {fail['status']}: {fail['error']}", flush=True)
        if not hidden and summary["findings_per_check"]:
            print("    " + ", ".join(f"{k} {v}" for k, v in summary["findings_per_check"].items()),
                  flush=True)
    if totals:
        print("findings per check:")
        for k, v in sorted(totals.items()):
            print(f"  {k:32} {v}")
    if out:
        out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
