#!/usr/bin/env python3
"""Create a new warplint check: its four files and its line in Checks.def.

    python3 scripts/add_new_check.py <category> <id> [--class Name]
        [--summary TEXT] [--needs NAME...] [--base Check|FunctionCheck]
        [--root DIR]

writes

    checks/<category>/<Name>Check.h     class <Name>Check, warplint::<category>
    checks/<category>/<Name>Check.cpp   its definition and factory
    test/checks/<id>.cu                 its lit test
    docs/checks/<id>.md                 its page

and inserts `WARPLINT_CHECK(<category>, "<id>", <Name>Check, <needs>,
"<summary>")` into checks/Checks.def, after the last check of the same
category (a new category goes at the end). checks/CMakeLists.txt builds every
checks/*/*Check.cpp, so nothing else changes.

The skeleton builds and runs as it is: it reports each kernel the user
defines, as a note (never fails a run), with the target's warp size from the
rule table; its test has that finding and the look-alikes that get none.
Replace the matcher, the message, the test's cases and the page's text with
the check's own.

The id is `<category>-<what-goes-wrong>`: lowercase words joined by dashes,
naming the defect, not the fix. The class name comes from the id without its
category (`memory-foo-bar` -> `FooBarCheck`) unless --class gives it. Nothing
is written when the id or the class is taken, a file exists, or an argument
is malformed: the script says why and exits with status 2.

Python 3 standard library only (the model is clang-tidy's add_new_check.py).
"""
import argparse
import subprocess
import shutil
import os
import re
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CATEGORIES = ("memory", "divergence", "warp", "arith", "launch", "arch", "host")
# What lib/Core/Services.h declares in namespace needs, when it cannot be read.
DEFAULT_NEEDS = ("None", "HostCode", "OptimisedView", "ResourceUsage",
                 "IRBarriers")
# What each need gives the check, for the header's comment.
NEED_ACCESS = {
    "HostCode": "it judges host code; in a clang compile it runs in the host "
                "pass, where no target is known",
    "OptimisedView": "context().optimisedAccesses() says what the -O3 "
                     "pipeline leaves of the device code's loads and stores",
    "ResourceUsage": "context().services().kernelResources() gives registers "
                     "and shared memory as ptxas allocates them",
    "IRBarriers": "the IR layer's barrier verdicts are reported under this "
                  "check's id",
}
BASES = ("Check", "FunctionCheck")
# Words a namespace (the category) cannot be, and the tool's own prefix
# (warplint-nolint is no check).
RESERVED_CATEGORIES = {
    "warplint", "alignas", "alignof", "and", "asm", "auto", "bool", "break",
    "case", "catch", "char", "class", "const", "continue", "default",
    "delete", "do", "double", "else", "enum", "explicit", "export", "extern",
    "false", "float", "for", "friend", "goto", "if", "inline", "int", "long",
    "mutable", "namespace", "new", "not", "or", "private", "protected",
    "public", "register", "return", "short", "signed", "sizeof", "static",
    "struct", "switch", "template", "this", "throw", "true", "try",
    "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual",
    "void", "volatile", "while", "xor", "std", "llvm", "clang",
}

CATEGORY_RE = re.compile(r"^[a-z][a-z0-9]*$")
ID_RE = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$")
CLASS_RE = re.compile(r"^[A-Z][A-Za-z0-9]*$")
ENTRY_RE = re.compile(r"^\s*WARPLINT_CHECK\s*\(", re.M)


class UsageError(Exception):
    """Bad input: reported as `add_new_check.py: error: ...`, exit 2."""


# --- Checks.def ------------------------------------------------------------

class Entry:
    """One WARPLINT_CHECK(...) of Checks.def: its arguments and where it
    ends (the offset after its line)."""

    def __init__(self, args, end):
        self.args = args
        self.end = end

    @property
    def category(self):
        return self.args[0]

    @property
    def id(self):
        return self.args[1].strip('"')

    @property
    def cls(self):
        return self.args[2]


def split_macro_args(text, start):
    """The arguments of the macro call whose '(' is at text[start], and the
    offset after its ')'. Commas and parentheses inside string literals are
    text, not syntax."""
    args, current, depth, i = [], [], 0, start + 1
    while i < len(text):
        c = text[i]
        if c == '"':
            j = i + 1
            while j < len(text) and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            current.append(text[i:j + 1])
            i = j + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                args.append("".join(current).strip())
                return args, i + 1
            depth -= 1
        elif c == "," and depth == 0:
            args.append("".join(current).strip())
            current = []
            i += 1
            continue
        current.append(c)
        i += 1
    raise UsageError("checks/Checks.def: unterminated WARPLINT_CHECK at "
                     "offset %d" % start)


def read_entries(text):
    entries = []
    for m in ENTRY_RE.finditer(text):
        args, end = split_macro_args(text, m.end() - 1)
        newline = text.find("\n", end)
        entries.append(Entry(args, len(text) if newline < 0 else newline + 1))
    return entries


def c_string(s):
    return '"%s"' % s.replace("\\", "\\\\").replace('"', '\\"')


def continuation_indent(text):
    """How the entries already there indent a summary on its own line."""
    m = re.search(r"^WARPLINT_CHECK\(.*,\n([ \t]+)\"", text, re.M)
    return m.group(1) if m else " " * len("WARPLINT_CHECK(")


def def_line(category, check_id, cls, needs, summary, indent):
    args = [category, c_string(check_id), cls, needs]
    return "WARPLINT_CHECK(%s,\n%s%s)\n" % (", ".join(args), indent,
                                            c_string(summary))


def insert_entry(text, entries, category, line):
    """Checks.def with line after the last entry of category, or before
    `#undef WARPLINT_CHECK` when the category is new."""
    same = [e for e in entries if e.category == category]
    if same:
        at = same[-1].end
    else:
        m = re.search(r"^#undef\s+WARPLINT_CHECK\b", text, re.M)
        if not m:
            raise UsageError("checks/Checks.def: no '#undef WARPLINT_CHECK' "
                             "to insert before")
        at = m.start()
    return text[:at] + line + text[at:]


# --- Validation ------------------------------------------------------------

def known_needs(root):
    """The names of namespace needs in lib/Core/Services.h."""
    path = os.path.join(root, "lib", "Core", "Services.h")
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return list(DEFAULT_NEEDS)
    block = re.search(r"namespace needs\s*\{(.*?)\}", text, re.S)
    names = re.findall(r"constexpr\s+unsigned\s+(\w+)\s*=",
                       block.group(1) if block else "")
    return names or list(DEFAULT_NEEDS)


def needs_expression(requested, available):
    names = []
    for raw in requested:
        for name in filter(None, re.split(r"[|,\s]+", raw)):
            name = name[len("needs::"):] if name.startswith("needs::") else name
            if name not in available:
                raise UsageError(
                    "unknown need '%s': one of %s" % (name, ", ".join(available)))
            if name != "None" and name not in names:
                names.append(name)
    return names, " | ".join("needs::" + n for n in names) or "needs::None"


def validate_category(category):
    if not CATEGORY_RE.match(category):
        raise UsageError("category '%s' is not a folder name of lowercase "
                         "letters and digits, starting with a letter (one of %s, "
                         "or a new one)" % (category, ", ".join(CATEGORIES)))
    if category in RESERVED_CATEGORIES:
        raise UsageError("category '%s' cannot be a namespace of warplint's "
                         "checks" % category)


def validate_id(check_id, category):
    if not ID_RE.match(check_id):
        raise UsageError("check id '%s' is not lowercase words joined by "
                         "dashes (e.g. '%s-shared-bank-conflict')"
                         % (check_id, category))
    if not check_id.startswith(category + "-"):
        raise UsageError("check id '%s' does not start with its category, "
                         "'%s-'" % (check_id, category))


def class_from_id(check_id, category):
    words = check_id[len(category) + 1:].split("-")
    return "".join(w[:1].upper() + w[1:] for w in words)


def class_name(requested, check_id, category):
    """The check's class name: the base name, from --class or the id, and
    'Check'."""
    name = requested if requested else class_from_id(check_id, category)
    if name.endswith("Check") and name != "Check":
        name = name[:-len("Check")]
    if not CLASS_RE.match(name) or name[0].isdigit():
        raise UsageError("class name '%s' is not a CamelCase identifier "
                         "(e.g. --class SharedBankConflict)" % name)
    return name + "Check"


def sentence(s):
    s = s.strip()
    return s[:1].upper() + s[1:] + ("" if s.endswith(".") else ".")


def wrap(text, width=77, prefix=""):
    return textwrap.fill(text, width=width, initial_indent=prefix,
                         subsequent_indent=prefix)


# --- Templates -------------------------------------------------------------

def header(p):
    needs = "".join(
        "\n" + wrap("Needs %s: %s." % (n, NEED_ACCESS.get(
            n, "see Core/Services.h")), prefix="// ")
        for n in p["need_names"])
    if p["base"] == "FunctionCheck":
        cls = """\
// Looks at each kernel and __device__ function the user wrote, once, at the
// end of the translation unit, when every launch in it has been seen.
class {Class} : public FunctionCheck {{
public:
  using FunctionCheck::FunctionCheck;

private:
  void checkFunction(const clang::FunctionDecl *F) override;
}};""".format(**p)
    else:
        cls = """\
class {Class} : public Check {{
public:
  using Check::Check;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &R) override;
}};""".format(**p)
    return """\
{comment}{needs}
#pragma once
#include "Core/Check.h"

namespace warplint::{category} {{

{cls}

}} // namespace warplint::{category}
""".format(comment=wrap("%s: %s" % (p["id"], p["summary"].rstrip(".") + "."),
                        prefix="// "),
           needs=needs, cls=cls, **p)


MATCHER_BODY = """\
void {Class}::registerMatchers(MatchFinder *Finder) {{
  // The kernels the user wrote: a template once, as written, not once per
  // instantiation.
  Finder->addMatcher(functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal),
                                  unless(isTemplateInstantiation()),
                                  unless(isExpansionInSystemHeader()))
                         .bind("kernel"),
                     this);
}}

void {Class}::check(const MatchFinder::MatchResult &R) {{
  const auto *Kernel = R.Nodes.getNodeAs<FunctionDecl>("kernel");
  // A host-only parse (the plugin's host pass) judges no target.
  const ArchInfo *Target = context().arch();
  if (!Target)
    return;
  diag(Kernel->getLocation(), "kernel {{0}} runs in warps of {{1}} threads",
       Severity::Note)
      << Kernel << Target->warp_size;
}}
"""

FUNCTION_BODY = """\
void {Class}::checkFunction(const FunctionDecl *F) {{
  // __device__ functions come here too; this check judges kernels.
  const ArchInfo *Target = context().arch();
  if (!F->hasAttr<CUDAGlobalAttr>() || !Target)
    return;
  diag(F->getLocation(), "kernel {{0}} runs in warps of {{1}} threads",
       Severity::Note)
      << F << Target->warp_size;
}}
"""


def implementation(p):
    if p["base"] == "FunctionCheck":
        includes = '#include "clang/AST/Attr.h"\n#include "clang/AST/Decl.h"\n'
        using = "using namespace clang;\n"
        body = FUNCTION_BODY.format(**p)
    else:
        includes = ('#include "clang/AST/Attr.h"\n#include "clang/AST/Decl.h"\n'
                    '#include "clang/ASTMatchers/ASTMatchers.h"\n')
        using = ("using namespace clang;\n"
                 "using namespace clang::ast_matchers;\n")
        body = MATCHER_BODY.format(**p)
    return """\
#include "checks/{category}/{Class}.h"
{includes}
{using}
namespace warplint::{category} {{

{body}
WARPLINT_CHECK_FACTORY({Class})

}} // namespace warplint::{category}
""".format(includes=includes, using=using, body=body, **p)


def lit_test(p):
    return """\
// RUN: %warplint --checks='-*,{id}' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{{{note|warning|error}}}}:'
//
// {summary_sentence}
#include <cuda_runtime.h>

__global__ void scale(float *a, float s) {{
  // CHECK: :[[@LINE-1]]:17: note: kernel 'scale' runs in warps of 32 threads [{id}]
  a[blockIdx.x * blockDim.x + threadIdx.x] *= s;
}}

// Negatives: a kernel declared, not defined here; a __device__ function; a
// host function that launches a kernel.
__global__ void elsewhere(float *a);
__device__ float twice(float x) {{ return 2 * x; }}
void launch(float *a) {{ scale<<<1, 32>>>(a, 2); }}
""".format(summary_sentence=sentence(p["summary"]), **p)


def doc(p):
    side = "host code" if "HostCode" in p["need_names"] else "device"
    return """\
# {id}
Side: {side} · Architectures: every target, from its rule table · Fix-it: none

{summary_sentence}

    __global__ void scale(float *a, float s) {{ ... }}
    // note: kernel 'scale' runs in warps of 32 threads [{id}]
    __device__ float twice(float x) {{ return 2 * x; }} // fine: no finding

A note: it never fails a run.

## Per architecture

From arch-data (`warp_size`):

| target | verdict |
|---|---|
| every target | note, with the target's warp size (32) |

## Limitations

- Kernels of system headers are not judged.

## Options

None.

## Suppress

    __global__ void scale(float *a, float s) {{ // NOLINT({id})

or `// NOLINTNEXTLINE({id})` on the line before; in `.warplint.yaml`,
`Checks: '-{id}'`.
""".format(side=side, summary_sentence=sentence(p["summary"]), **p)


# --- Main ------------------------------------------------------------------

def plan(a):
    """The files to write and Checks.def's new text, or UsageError."""
    root = os.path.abspath(a.root)
    checks_def = os.path.join(root, "checks", "Checks.def")
    if not os.path.isfile(checks_def):
        raise UsageError("%s is not a warplint source tree: no "
                         "checks/Checks.def" % root)
    validate_category(a.category)
    validate_id(a.id, a.category)
    cls = class_name(a.cls, a.id, a.category)
    need_names, needs = needs_expression(a.needs, known_needs(root))
    summary = " ".join(a.summary.split()) if a.summary else \
        a.id[len(a.category) + 1:].replace("-", " ")

    with open(checks_def) as f:
        text = f.read()
    entries = read_entries(text)
    for e in entries:
        if e.id == a.id:
            raise UsageError("check id '%s' is taken (checks/Checks.def)" % a.id)
        if e.cls == cls:
            raise UsageError("class '%s' is taken by '%s' (checks/Checks.def)"
                             % (cls, e.id))
    p = {"category": a.category, "id": a.id, "Class": cls,
         "summary": summary, "base": a.base, "need_names": need_names}
    files = [
        (os.path.join("checks", a.category, cls + ".h"), header(p)),
        (os.path.join("checks", a.category, cls + ".cpp"), implementation(p)),
        (os.path.join("test", "checks", a.id + ".cu"), lit_test(p)),
        (os.path.join("docs", "checks", a.id + ".md"), doc(p)),
    ]
    for rel, _ in files:
        if os.path.lexists(os.path.join(root, rel)):
            raise UsageError("%s exists: not overwriting it" % rel)
    line = def_line(a.category, a.id, cls, needs, summary,
                    continuation_indent(text))
    return root, files, checks_def, insert_entry(text, entries, a.category, line)


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="add_new_check.py",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="example: add_new_check.py memory memory-misaligned-vector "
               "--summary 'a vector load whose address is not aligned to "
               "its width' --needs OptimisedView")
    ap.add_argument("category", help="folder under checks/: %s, or a new one"
                    % ", ".join(CATEGORIES))
    ap.add_argument("id", help="<category>-<what-goes-wrong>, e.g. "
                    "memory-shared-bank-conflict")
    ap.add_argument("--class", dest="cls", metavar="Name",
                    help="class base name (default: from the id; 'Check' is "
                    "appended)")
    ap.add_argument("--summary", metavar="TEXT",
                    help="one line for --list-checks, SARIF and the docs "
                    "(default: the id's words)")
    ap.add_argument("--needs", nargs="+", action="extend", default=[],
                    metavar="NAME",
                    help="what the check needs beyond the AST (Core/Services.h): "
                    "%s" % ", ".join(DEFAULT_NEEDS[1:]))
    ap.add_argument("--base", default="Check", choices=BASES,
                    help="matcher-based Check (default) or FunctionCheck")
    ap.add_argument("--root", default=ROOT, metavar="DIR",
                    help="the source tree (default: the one holding this "
                    "script)")
    ap.add_argument("--build", metavar="DIR",
                    help="then build DIR (a configured build tree, e.g. "
                    "build) and run the new check's lit test and the audit: "
                    "adding and building a check is one command")
    a = ap.parse_args(argv)
    try:
        root, files, checks_def, new_def = plan(a)
    except UsageError as e:
        print("add_new_check.py: error: %s" % e, file=sys.stderr)
        return 2

    for rel, content in files:
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "x") as f:
            f.write(content)
        print("created %s" % rel)
    with open(checks_def, "w") as f:
        f.write(new_def)
    print("updated checks/Checks.def")
    if not a.build:
        print("next: cmake --build build && build/bin/warplint-unittests "
              "--gtest_filter='ChecksAudit.*' && lit -sv build/test --filter "
              "%s (or add --build build)" % a.id)
        return 0
    return build_and_test(a.build, a.id)


def build_and_test(build, check_id):
    """cmake --build, the checks audit, and the new check's lit test."""
    lit = shutil.which("lit") or "/usr/lib/llvm-22/bin/lit"
    steps = [
        ["cmake", "--build", build],
        [os.path.join(build, "bin", "warplint-unittests"),
         "--gtest_filter=ChecksAudit.*"],
        [lit, "-sv", os.path.join(build, "test"), "--filter",
         re.escape(check_id)],
    ]
    for cmd in steps:
        print("+ " + " ".join(cmd), flush=True)
        r = subprocess.run(cmd)
        if r.returncode != 0:
            return r.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
