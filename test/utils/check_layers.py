#!/usr/bin/env python3
"""The layers, checked on the sources: no #include and no library link runs
up a layer.

    check_layers.py [ROOT]

ROOT is a source tree (the repository by default). Each folder below is a
layer; a file may include its own layer's headers and those of the layers
below it, never above (the build enforces the same with one include root per
layer, lib/CMakeLists.txt). Arch and IR are LLVM-only: no clang header, no
clang-based layer. The tools may not include one another. Libraries declared
with warplint_layer() may link only lower layers. Prints one line per
problem and exits 1 when there is any; 0 when there is none.
"""
import os
import re
import sys

# Bottom to top: (name, folder below the root, how its headers are spelled).
LAYERS = [
    ("Support", "lib/Support", "Support/"),
    ("Arch", "lib/Arch", "Arch/"),
    ("Analysis", "lib/Analysis", "Analysis/"),
    ("IR", "lib/IR", "IR/"),
    ("Core", "lib/Core", "Core/"),
    ("checks", "checks", "checks/"),
    ("Driver", "lib/Driver", "Driver/"),
    ("Output", "lib/Output", "Output/"),
    ("tools/common", "tools/common", "tools/common/"),
    ("tools", "tools", None),
]
LLVM_ONLY = {"Arch", "IR"}
RANK = {name: i for i, (name, _, _) in enumerate(LAYERS)}
SOURCE = (".h", ".cpp", ".def", ".inc")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def layer_of(rel):
    """The layer of a path below the root, or None (tests, fuzz, bench)."""
    for name, folder, _ in LAYERS:
        if rel == folder or rel.startswith(folder + "/"):
            return name
    return None


def tool_of(rel):
    parts = rel.split("/")
    return parts[1] if parts[0] == "tools" and len(parts) > 2 else None


def resolve(root, includer, spelled):
    """The file a quoted include names, relative to root, or None (a system
    or toolkit header)."""
    here = os.path.normpath(os.path.join(os.path.dirname(includer), spelled))
    if os.path.isfile(os.path.join(root, here)):
        return here
    for _, folder, prefix in LAYERS:
        if prefix and spelled.startswith(prefix):
            return os.path.normpath(os.path.join(folder, spelled[len(prefix):]))
    return None


def check_includes(root):
    problems = []
    for _, folder, _ in LAYERS:
        top = os.path.join(root, folder)
        for dirpath, _, files in os.walk(top):
            for f in sorted(files):
                if not f.endswith(SOURCE):
                    continue
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, root)
                me = layer_of(rel)
                if me == "tools" and rel.startswith("tools/common/"):
                    continue  # walked as its own layer
                with open(path, errors="replace") as fh:
                    for n, line in enumerate(fh, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        kind, spelled = m.groups()
                        where = "%s:%d" % (rel, n)
                        if me in LLVM_ONLY and spelled.startswith("clang/"):
                            problems.append("%s: %s is LLVM-only but includes "
                                            "<%s>" % (where, me, spelled))
                            continue
                        if kind != '"':
                            continue
                        target = resolve(root, rel, spelled)
                        if target is None:
                            continue
                        other = layer_of(target)
                        if other is None:
                            problems.append("%s: includes %s, outside every "
                                            "layer" % (where, target))
                        elif RANK[other] > RANK[me]:
                            problems.append(
                                "%s: %s includes %s of the higher layer %s"
                                % (where, me, spelled, other))
                        elif me in LLVM_ONLY and other not in LLVM_ONLY:
                            problems.append("%s: %s is LLVM-only but includes "
                                            "%s of %s" % (where, me, spelled,
                                                          other))
                        elif (me == other == "tools"
                              and tool_of(rel) != tool_of(target)):
                            problems.append("%s: tool %s includes %s of tool "
                                            "%s" % (where, tool_of(rel),
                                                    spelled, tool_of(target)))
    return problems


LAYER_CALL = re.compile(r"warplint_layer\(\s*(\w+)\s+(\S+)(.*?)\)", re.S)


def check_links(root):
    """warplint_layer(<target> <folder> ... DEPENDS <targets...> ...)."""
    calls = []
    for dirpath, dirs, files in os.walk(root):
        # Not the build trees, nor the tests' own example trees.
        dirs[:] = [d for d in dirs
                   if d != "Inputs" and not d.startswith(("build", "."))]
        if "CMakeLists.txt" in files:
            text = open(os.path.join(dirpath, "CMakeLists.txt")).read()
            text = re.sub(r"#[^\n]*", "", text)
            calls += LAYER_CALL.findall(text)
    layer_of_target = {}
    for target, folder, _ in calls:
        if not folder.startswith("$"):
            layer_of_target[target] = layer_of(folder)
    problems = []
    for target, folder, rest in calls:
        words = rest.split()
        if "DEPENDS" not in words:
            continue
        deps = []
        for w in words[words.index("DEPENDS") + 1:]:
            if w.isupper():
                break
            deps.append(w)
        me = layer_of_target.get(target)
        for d in deps:
            other = layer_of_target.get(d)
            if me and other and RANK[other] >= RANK[me] and d != target:
                problems.append("CMake: %s (%s) links %s of the same or a "
                                "higher layer %s" % (target, me, d, other))
    return problems


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..")
    root = os.path.normpath(root)
    problems = check_includes(root) + check_links(root)
    for p in problems:
        print("error: " + p)
    print("%d problems" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
