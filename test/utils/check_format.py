#!/usr/bin/env python3
"""The C++ sources are formatted: clang-format --dry-run -Werror over every
.h and .cpp of lib/, checks/, tools/, test/unit/ and fuzz/ (LLVM style, the
.clang-format at the root).

    check_format.py CLANG_FORMAT ROOT

Exits with clang-format's status; its messages name each file and line that
is not formatted. `CLANG_FORMAT -i FILE...` fixes them.
"""
import os
import subprocess
import sys

DIRS = ("lib", "checks", "tools", "test/unit", "fuzz")


def sources(root):
    for top in DIRS:
        for dirpath, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for f in sorted(files):
                if f.endswith((".h", ".cpp")):
                    yield os.path.join(dirpath, f)


def main():
    clang_format, root = sys.argv[1], sys.argv[2]
    files = list(sources(root))
    r = subprocess.run([clang_format, "--dry-run", "-Werror"] + files)
    print("%d files checked, %s" % (len(files), "formatted" if r.returncode == 0
                                     else "some not formatted"))
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())
