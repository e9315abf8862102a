#!/usr/bin/env python3
"""Lint a lit suite's RUN lines for tests that cannot fail.

Two mistakes make a lit test pass whatever the tool does:

  self-check   FileCheck reads the test's own source, or a copy of it made
               with `cp %s ...` (say, to run --fix on), while the file still
               holds the test's check lines: every `// FIXED: ...` pattern
               then matches its own comment. The check lines must be removed
               first (`%strip-checks %t.cu | FileCheck %s ...`).
               Looked for: `FileCheck ... < FILE`, `--input-file=FILE`, and
               `cat FILE ... | FileCheck`, where FILE is %s or a copy of it.

  discarded    a step's exit status is thrown away: `|| true` (or `|| :`),
               `; true`, or a `;` between two commands, which lit's `&&`
               between RUN lines cannot see through; in the RUN line and in
               the scripts it gives a nested shell (`sh -c '...'`). A `;` is fine before a test of the status
               (`...; test $? -eq 2`) and as shell syntax (`; do`, `; done`,
               `; then`, `; fi`, ...).

Usage: lint_run_lines.py [--list] PATH...

A PATH that is a file is linted as it is. A directory is walked as lit
discovers tests: files with the suffixes of the nearest lit.cfg.py or
lit.local.cfg (`config.suffixes = [...]`), leaving out the names in
`config.excludes = [...]` (a lit.local.cfg with `config.suffixes = []` turns a
directory off). --list prints each file linted. A problem prints as
`FILE:LINE: error: ...`. Exit status: 0 clean, 1 problems, 2 bad usage.
Python 3 standard library only.
"""
import ast
import os
import re
import sys

DEFAULT_SUFFIXES = [".cu", ".test", ".ll"]
CONFIG_NAMES = ("lit.cfg.py", "lit.local.cfg")
# Shell words that may follow a `;` as syntax.
SYNTAX_AFTER_SEMICOLON = {"do", "done", "then", "fi", "else", "elif", "esac", "}", ")"}


# --- RUN lines -------------------------------------------------------------

def run_commands(text):
    """[(line, command)] as lit reads them: the text after `RUN:` on each
    line, a line ending in a backslash joined with the next RUN line."""
    commands = []
    pending = None
    for number, line in enumerate(text.splitlines(), 1):
        pos = line.find("RUN:")
        if pos < 0:
            continue
        part = line[pos + 4:].rstrip()
        if pending is not None:
            pending = (pending[0], pending[1] + part)
        else:
            pending = (number, part)
        if pending[1].endswith("\\"):
            pending = (pending[0], pending[1][:-1])
            continue
        commands.append(pending)
        pending = None
    if pending is not None:
        commands.append(pending)
    return commands


# --- A small shell tokenizer -----------------------------------------------

def _skip_dollar_paren(s, i):
    """s[i:] starts with `$(`: the index after its matching `)`."""
    depth = 0
    while i < len(s):
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == "'":
            end = s.find("'", i + 1)
            i = len(s) if end < 0 else end + 1
            continue
        if c == '"':
            i = _skip_double_quoted(s, i)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def _skip_double_quoted(s, i):
    """s[i] is `"`: the index after the closing quote."""
    i += 1
    while i < len(s):
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if s.startswith("$(", i):
            i = _skip_dollar_paren(s, i)
            continue
        if c == '"':
            return i + 1
        i += 1
    return i


def _unquote(word):
    out = []
    i = 0
    while i < len(word):
        c = word[i]
        if c == "\\" and i + 1 < len(word):
            out.append(word[i + 1])
            i += 2
        elif c in "'\"":
            end = word.find(c, i + 1)
            end = len(word) if end < 0 else end
            out.append(word[i + 1:end])
            i = end + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def tokenize(s):
    """Words and operators: [('word', text) | ('op', text) |
    ('redir', op, target)], quotes taken off the words (enough to name the
    programs and the files; `$(...)` stays one word)."""
    tokens = []
    word = []
    i = 0

    def flush():
        if word:
            tokens.append(("word", _unquote("".join(word))))
            word.clear()

    while i < len(s):
        c = s[i]
        if c in " \t":
            flush()
            i += 1
        elif c == "\\":
            word.append(s[i:i + 2])
            i += 2
        elif c == "'":
            end = s.find("'", i + 1)
            end = len(s) - 1 if end < 0 else end
            word.append(s[i:end + 1])
            i = end + 1
        elif c == '"':
            end = _skip_double_quoted(s, i)
            word.append(s[i:end])
            i = end
        elif s.startswith("$(", i):
            end = _skip_dollar_paren(s, i)
            word.append(s[i:end])
            i = end
        elif c == "`":
            end = s.find("`", i + 1)
            end = len(s) - 1 if end < 0 else end
            word.append(s[i:end + 1])
            i = end + 1
        elif c in "<>" or s.startswith("&>", i):
            # A file descriptor number written just before: part of the op.
            if word and "".join(word).isdigit():
                word.clear()
            flush()
            m = re.match(r"&>>?|<<<|<<|<&|<>|<|>>|>&|>\||>", s[i:])
            op = m.group(0)
            i += len(op)
            while i < len(s) and s[i] in " \t":
                i += 1
            target = []
            while i < len(s) and s[i] not in " \t;|&<>()":
                if s[i] == "'":
                    end = s.find("'", i + 1)
                    end = len(s) - 1 if end < 0 else end
                    target.append(s[i:end + 1])
                    i = end + 1
                elif s[i] == '"':
                    end = _skip_double_quoted(s, i)
                    target.append(s[i:end])
                    i = end
                else:
                    target.append(s[i])
                    i += 1
            tokens.append(("redir", op, _unquote("".join(target))))
        else:
            m = re.match(r"&&|\|\||;;|\|&|[;&|()\n]", s[i:])
            if m:
                flush()
                tokens.append(("op", m.group(0)))
                i += len(m.group(0))
            else:
                word.append(c)
                i += 1
    flush()
    return tokens


class Command:
    """A simple command: its words, its redirections, the operator before
    it and the one after it."""

    def __init__(self, before):
        self.words = []
        self.redirs = []
        self.before = before
        self.after = None

    def program(self):
        """The words from the program on: lit's `not` and `%if` wrappers,
        `env` and its settings left out."""
        words = list(self.words)
        while words:
            w = words[0]
            if w in ("not", "--crash", "%{", "%}") or re.match(r"^\w+=", w):
                words.pop(0)
            elif w == "env":
                words.pop(0)
                while words and (words[0].startswith("-") or "=" in words[0]):
                    words.pop(0)
            elif w == "%if":
                words = words[2:]
            else:
                break
        return words

    def name(self):
        words = self.program()
        return os.path.basename(words[0]) if words else ""

    def text(self):
        return " ".join(self.words)


def commands(tokens):
    out = []
    current = Command(None)
    for token in tokens:
        if token[0] == "word":
            current.words.append(token[1])
        elif token[0] == "redir":
            current.redirs.append((token[1], token[2]))
        else:
            current.after = token[1]
            if current.words or current.redirs:
                out.append(current)
            current = Command(token[1])
    if current.words or current.redirs:
        out.append(current)
    return out


# --- The checks ------------------------------------------------------------

def is_filecheck(cmd):
    return re.match(r"^FileCheck(-\d+)?$", cmd.name()) is not None


def filecheck_inputs(cmd):
    files = [target for op, target in cmd.redirs if op in ("<", "<>")]
    words = cmd.program()
    for i, w in enumerate(words):
        if w.startswith("--input-file="):
            files.append(w.split("=", 1)[1])
        elif w == "--input-file" and i + 1 < len(words):
            files.append(words[i + 1])
    return files


class SelfCopies:
    """%s and the files made from it by `cp` or `mv`, in RUN line order."""

    def __init__(self):
        self.files = {"%s"}
        self.dirs = set()

    def __contains__(self, path):
        if path in self.files:
            return True
        return any(path.startswith(d) for d in self.dirs)

    def update(self, cmd):
        words = cmd.program()
        name = cmd.name()
        if name in ("cp", "mv") and len(words) >= 3:
            args = [w for w in words[1:] if not w.startswith("-")]
            if len(args) >= 2 and any(a in self for a in args[:-1]):
                dest = args[-1]
                if dest.endswith("/"):
                    self.dirs.add(dest)
                else:
                    self.files.add(dest)
        # A file written by a redirection is no longer a copy.
        for op, target in cmd.redirs:
            if op in (">", ">|", "&>") and target in self.files and target != "%s":
                self.files.discard(target)


SHELLS = {"sh", "bash", "dash", "zsh"}


def lint_command(cmd_text, copies):
    """The problems of one RUN command (or of a nested `sh -c` script):
    [message]."""
    problems = []
    cmds = commands(tokenize(cmd_text))
    for i, cmd in enumerate(cmds):
        first = cmd.words[0] if cmd.words else ""
        prev = cmds[i - 1].text() if i > 0 else ""
        if cmd.before in ("||", ";") and first in ("true", ":"):
            problems.append(
                "'%s %s' discards the exit status of `%s`: test the status "
                "(`; test $? -eq N`, `not`) or let it fail the test"
                % (cmd.before, first, prev))
        if cmd.after == ";" and i + 1 < len(cmds):
            nxt = cmds[i + 1]
            after = nxt.words[0] if nxt.words else ""
            status_test = after in ("test", "[") and len(nxt.words) > 1 \
                and nxt.words[1] == "$?"
            if after not in SYNTAX_AFTER_SEMICOLON and after not in ("true", ":") \
                    and not status_test:
                problems.append(
                    "';' discards the exit status of `%s`: chain with '&&' "
                    "(or test it: `; test $? -eq N`)" % cmd.text())
        # A script for a nested shell (`sh -c '...'`, also under xargs).
        for j in range(len(cmd.words) - 2):
            if os.path.basename(cmd.words[j]) in SHELLS and cmd.words[j + 1] == "-c":
                problems += lint_command(cmd.words[j + 2], copies)
        if is_filecheck(cmd):
            read = [f for f in filecheck_inputs(cmd) if f in copies]
            # `cat FILE | FileCheck`: the stage that feeds it.
            if cmd.before == "|" and i > 0 and cmds[i - 1].name() == "cat":
                cat = cmds[i - 1]
                read += [w for w in cat.program()[1:] if w in copies]
                read += [t for op, t in cat.redirs if op == "<" and t in copies]
            for f in read:
                what = "the test's own source" if f == "%s" else \
                    "a copy of the test's own source"
                problems.append(
                    "FileCheck reads %s (%s) with its check lines still in "
                    "it, so the patterns can match themselves: strip them "
                    "first (`%%strip-checks %s | FileCheck ...`)" % (f, what, f))
        copies.update(cmd)
    return problems


def lint_file(path):
    """([(line, message)], number of RUN commands)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    copies = SelfCopies()
    problems = []
    runs = run_commands(text)
    for line, cmd_text in runs:
        for message in lint_command(cmd_text, copies):
            problems.append((line, message))
    return problems, len(runs)


# --- Discovery -------------------------------------------------------------

def read_config(path, suffixes, excludes):
    """The suffixes and excludes a lit config file sets, else those given."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return suffixes, excludes
    for key, value in re.findall(
            r"^config\.(suffixes|excludes)\s*=\s*(.+)$", text, re.M):
        try:
            parsed = list(ast.literal_eval(value.strip()))
        except (ValueError, SyntaxError):
            continue
        if key == "suffixes":
            suffixes = parsed
        else:
            excludes = parsed
    return suffixes, excludes


def discover(root):
    suffixes, excludes = DEFAULT_SUFFIXES, []
    found = []

    def walk(directory, suffixes, excludes):
        for name in CONFIG_NAMES:
            cfg = os.path.join(directory, name)
            if os.path.isfile(cfg):
                suffixes, excludes = read_config(cfg, suffixes, excludes)
        for name in sorted(os.listdir(directory)):
            if name.startswith(".") or name in excludes or name == "Output":
                continue
            full = os.path.join(directory, name)
            if os.path.isdir(full):
                walk(full, suffixes, excludes)
            elif os.path.splitext(name)[1] in suffixes:
                found.append(full)

    walk(root, suffixes, excludes)
    return found


def main(argv):
    args = argv[1:]
    listing = "--list" in args
    paths = [a for a in args if a != "--list"]
    if not paths or any(p.startswith("-") for p in paths):
        sys.stderr.write("usage: lint_run_lines.py [--list] PATH...\n")
        return 2
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += [(f, os.path.relpath(f, p)) for f in discover(p)]
        elif os.path.isfile(p):
            files.append((p, p))
        else:
            sys.stderr.write("lint_run_lines.py: no such file or directory: %s\n" % p)
            return 2
    total_problems = 0
    total_runs = 0
    for full, shown in files:
        if listing:
            print("linted: %s" % shown)
        problems, runs = lint_file(full)
        total_runs += runs
        for line, message in problems:
            print("%s:%d: error: %s" % (shown, line, message))
        total_problems += len(problems)
    print("%d test files, %d RUN commands, %d problems"
          % (len(files), total_runs, total_problems))
    return 1 if total_problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
