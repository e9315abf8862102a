#!/usr/bin/env python3
"""Compile files of a copy of the source tree with the flags the build gives
one of the original's files.

    compile_like.py --build DIR --like checks/arch/IgnoredConfigCheck.cpp \\
        --copy SCRATCH FILE...

takes the command that DIR/compile_commands.json records for the --like
file, points it at the copy and compiles each FILE (a path in the copy) with
-fsyntax-only, so that a file generated into the copy (a new check) is held
to the real build's compiler, warnings, defines and include roots:

- an include directory of the source tree becomes the copy's;
- one of the build tree (the layers' include roots, folders of symbolic links
  to lib/<Layer>, checks, ...) is mirrored inside the copy, its links into
  the source tree pointing into the copy, so that each layer still sees only
  what it sees in the real build;
- the output file, dependency files and the precompiled header are dropped
  (the precompiled header was built from the original's paths).

The compiler's messages go to standard output, with the copy's paths as they
are. Exit status: 0 every file compiled, 1 one did not, 2 bad usage (no
database, no entry for --like). Python 3 standard library only.
"""
import argparse
import concurrent.futures
import json
import os
import shlex
import subprocess
import sys

INCLUDE_FLAGS = ("-I", "-isystem", "-iquote", "-idirafter")
# Options whose next argument is a file of the build's own: dropped with it.
DROP_WITH_VALUE = ("-o", "-MF", "-MT", "-MQ", "--serialize-diagnostics")
DROP = ("-c", "-MD", "-MMD", "-Winvalid-pch")


class UsageError(Exception):
    pass


def inside(path, folder):
    return path == folder or path.startswith(folder + os.sep)


def command_for(build, like):
    db = os.path.join(build, "compile_commands.json")
    try:
        with open(db) as f:
            entries = json.load(f)
    except (OSError, ValueError) as e:
        raise UsageError("cannot read %s: %s" % (db, e))
    want = os.path.realpath(like)
    for e in entries:
        path = os.path.join(e["directory"], e["file"])
        if os.path.realpath(path) == want:
            args = e.get("arguments") or shlex.split(e["command"])
            return e["directory"], os.path.realpath(path), args
    raise UsageError("%s has no entry for %s" % (db, like))


class Mapper:
    """Rewrites the original's paths to the copy's."""

    def __init__(self, source, build, copy):
        self.source = os.path.realpath(source)
        self.build = os.path.realpath(build)
        self.copy = os.path.realpath(copy)
        self.mirrors = os.path.join(self.copy, ".build-include")

    def path(self, p):
        real = os.path.realpath(p)
        if inside(real, self.copy):
            return p
        if inside(real, self.build):
            return self.mirror(real)
        if inside(real, self.source):
            return os.path.join(self.copy, os.path.relpath(real, self.source))
        return p

    def mirror(self, real):
        """A folder of the build tree, rebuilt in the copy: links into the
        source tree point into the copy; anything else is linked as it is."""
        out = os.path.join(self.mirrors, os.path.relpath(real, self.build))
        if os.path.isdir(out) or not os.path.isdir(real):
            return out
        os.makedirs(out)
        for name in sorted(os.listdir(real)):
            original = os.path.join(real, name)
            if os.path.islink(original):
                os.symlink(self.path(original), os.path.join(out, name))
            elif os.path.isdir(original):
                self.mirror(original)
            else:
                os.symlink(original, os.path.join(out, name))
        return out


def flags_for(args, directory, source_file, mapper):
    """The compiler and its flags, for the copy, without the file, the
    output and the precompiled header."""
    compiler, rest, flags, i = args[0], args[1:], [], 0

    def absolute(p):
        return os.path.join(directory, p)

    while i < len(rest):
        a = rest[i]
        nxt = rest[i + 1] if i + 1 < len(rest) else None
        if a in DROP:
            i += 1
        elif a in DROP_WITH_VALUE:
            i += 2
        elif a == "-include" and nxt and nxt.endswith("cmake_pch.hxx"):
            i += 2
        elif a == "-Xclang" and nxt == "-include-pch":
            i += 4
        elif a in INCLUDE_FLAGS and nxt is not None:
            flags += [a, mapper.path(absolute(nxt))]
            i += 2
        elif a.startswith(INCLUDE_FLAGS[:1]) and len(a) > 2:
            flags.append("-I" + mapper.path(absolute(a[2:])))
            i += 1
        elif os.path.realpath(absolute(a)) == source_file:
            i += 1
        else:
            flags.append(a)
            i += 1
    return compiler, flags


def compile_one(compiler, flags, path):
    cmd = [compiler] + flags + ["-fsyntax-only", path]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    return path, r.returncode, r.stdout, cmd


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", required=True,
                    help="build tree with compile_commands.json")
    ap.add_argument("--source", help="the source tree the build was made "
                    "from (default: the build tree's parent)")
    ap.add_argument("--like", required=True,
                    help="a file of the source tree, relative to it, whose "
                    "flags the files get")
    ap.add_argument("--copy", required=True, help="the copy of the source tree")
    ap.add_argument("--print", action="store_true",
                    help="print each compile command")
    ap.add_argument("files", nargs="+", help="files of the copy to compile")
    a = ap.parse_args(argv)
    source = a.source or os.path.dirname(os.path.realpath(a.build))
    try:
        directory, original, args = command_for(
            a.build, os.path.join(source, a.like))
    except UsageError as e:
        print("compile_like.py: error: %s" % e, file=sys.stderr)
        return 2
    mapper = Mapper(source, a.build, a.copy)
    compiler, flags = flags_for(args, directory, original, mapper)
    files = [os.path.abspath(f) for f in a.files]
    status = 0
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        for path, rc, out, cmd in pool.map(
                lambda f: compile_one(compiler, flags, f), files):
            if a.print:
                print(" ".join(shlex.quote(c) for c in cmd))
            sys.stdout.write(out)
            rel = os.path.relpath(path, a.copy)
            print("%s: %s" % (rel, "compiled" if rc == 0 else
                              "FAILED (exit %d)" % rc))
            status = status or (1 if rc else 0)
    return status


if __name__ == "__main__":
    sys.exit(main())
