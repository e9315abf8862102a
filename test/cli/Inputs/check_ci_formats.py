"""Checks warplint's CI formats against what their consumers read.

codeclimate FILE: GitLab's Code Quality report (an array of Code Climate
issues: description, check_name, fingerprint, severity, location.path,
location.lines.begin) and prints 'severity path:line check fingerprint'.

matcher MATCHER TEXT: applies the problem matcher's pattern to warplint's
text output as GitHub's runner does (one regexp, whole lines) and prints
'severity file:line:col code' per match."""
import json
import re
import sys

if sys.argv[1] == "codeclimate":
    with open(sys.argv[2]) as f:
        issues = json.load(f)
    assert isinstance(issues, list)
    for i in issues:
        for key in ("description", "check_name", "fingerprint", "severity"):
            assert isinstance(i[key], str) and i[key], key
        assert i["severity"] in ("info", "minor", "major", "critical", "blocker")
        assert isinstance(i["location"]["path"], str)
        assert isinstance(i["location"]["lines"]["begin"], int)
        print(f"{i['severity']} {i['location']['path']}:"
              f"{i['location']['lines']['begin']} {i['check_name']} {i['fingerprint']}")
    fps = [i["fingerprint"] for i in issues]
    assert len(fps) == len(set(fps)), "fingerprints repeat"
    print("ok")
elif sys.argv[1] == "matcher":
    with open(sys.argv[2]) as f:
        matcher = json.load(f)["problemMatcher"][0]
    p = matcher["pattern"][0]
    # The runner's regexps are JavaScript's; this one uses nothing that
    # differs from Python's.
    rx = re.compile(p["regexp"])
    with open(sys.argv[3]) as f:
        for line in f:
            m = rx.match(line.rstrip("\n"))
            if m:
                print(f"{m.group(p['severity'])} {m.group(p['file'])}:"
                      f"{m.group(p['line'])}:{m.group(p['column'])} {m.group(p['code'])}")
