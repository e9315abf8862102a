#!/usr/bin/env python3
"""Print a test file without its own lit and FileCheck directives.

A test that runs --fix on a copy of itself and then FileChecks the copy must
not check the copy as it is: the copy still holds the test's `// FIXED: ...`
lines, so every pattern would match its own comment whatever the fix did.
This removes those comments first, as LLVM's check_clang_tidy.py does:

  RUN: cp %s %t.cu && %warplint --fix ... %t.cu -- ...
  RUN: %strip-checks %t.cu | FileCheck %s --check-prefix=FIXED

(lit.cfg.py defines %strip-checks as this script.)

A directive is a comment whose text starts with an upper-case name and a
colon: `// CHECK:`, `// FIXED:`, `// JSON-NEXT:`, `// RUN:`, `; CHECK:`,
`# RUN:`. A line that is only such a comment becomes an empty line (the line
numbers of the rest stay as they were); one after code loses the comment.
`//` directives count anywhere after white space or at the start of a line;
`;` and `#` ones only at the start of a line (after indentation), where they
cannot be C++ code. Other comments (`// NOLINT(...)`, `// fine: ...`) stay.

Usage: strip_checks.py FILE   (the result goes to standard output)
"""
import re
import sys

NAME = r"[A-Z][A-Z0-9_]*(?:-[A-Z0-9_]+)*\s*:"
# A whole line that is a directive, with any of the three comment leaders.
WHOLE_LINE = re.compile(r"^\s*(?://|;+|#)\s*" + NAME)
# A `//` directive after code.
TRAILING = re.compile(r"(?:^|(?<=\s))//\s*" + NAME + r".*$")


def strip(text):
    out = []
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        ending = line[len(body):]
        if WHOLE_LINE.match(body):
            body = ""
        else:
            body = TRAILING.sub("", body).rstrip() if TRAILING.search(body) else body
        out.append(body + ending)
    return "".join(out)


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: strip_checks.py FILE\n")
        return 2
    with open(argv[1], encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
    sys.stdout.buffer.write(strip(text).encode("utf-8", "surrogateescape"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
