"""Runs warplint on each file for several targets, with one parse where it
may (the default) and with a parse per target (--one-parse=false), and fails
unless the two JSON outputs and exit codes are the same. Prints, per file,
how the one-parse run parsed it (--print-parses).

usage: one_parse_agrees.py WARPLINT ARCHS FILE... [-- FLAGS...]
"""
import json
import subprocess
import sys


def run(warplint, archs, path, flags, one_parse):
    cmd = [warplint, "--checks=*", "--format=json", "--ptxas=false",
           "--print-parses", "--arch=" + archs,
           "--one-parse=" + ("true" if one_parse else "false"), path, "--"]
    p = subprocess.run(cmd + flags, capture_output=True, text=True)
    plan = [l for l in p.stderr.splitlines() if l.startswith("warplint: " + path + ": ")]
    try:
        out = json.loads(p.stdout)
    except ValueError:
        out = p.stdout
    return p.returncode, out, plan


def main():
    args = sys.argv[1:]
    flags = []
    if "--" in args:
        at = args.index("--")
        args, flags = args[:at], args[at + 1:]
    warplint, archs, files = args[0], args[1], args[2:]
    failed = 0
    for path in files:
        one = run(warplint, archs, path, flags, True)
        each = run(warplint, archs, path, flags, False)
        print(one[2][0] if one[2] else path + ": (no plan)")
        if one[:2] != each[:2]:
            failed += 1
            print("DIFFERENT: " + path)
            print("  one parse: exit %d\n%s" % (one[0], json.dumps(one[1], indent=1)))
            print("  per target: exit %d\n%s" % (each[0], json.dumps(each[1], indent=1)))
    print("%d of %d differ" % (failed, len(files)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
