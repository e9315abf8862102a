"""Prints a JSON report in a form FileCheck can read; fails if stdout held
anything besides the one document."""
import json
import sys

with open(sys.argv[1]) as f:
    doc = json.load(f)  # raises on anything but exactly one JSON document
assert set(doc) == {"version", "tool", "findings", "errors"}, doc.keys()
print(f"version={doc['version']} tool={doc['tool']}")
for f in doc["findings"]:
    assert set(f) >= {"check", "severity", "file", "line", "column", "message",
                      "arch", "notes", "fixes", "metrics"}, f.keys()
    print(f"{f['check']} {f['severity']} {f['file']}:{f['line']}:{f['column']} "
          f"arch={','.join(f['arch'])} fixes={len(f['fixes'])}")
print(f"errors={len(doc['errors'])}")
for e in doc["errors"]:
    print(f"error {e['file']}:{e['line']}:{e['column']} {e['message']}")
