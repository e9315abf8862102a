"""Prints 'ruleId line fingerprint' for each result of a SARIF log, or
'check line fingerprint' for each entry of a warplint baseline."""
import json
import sys

with open(sys.argv[1]) as f:
    doc = json.load(f)
if "runs" in doc:
    for r in doc["runs"][0]["results"]:
        line = r["locations"][0]["physicalLocation"]["region"]["startLine"]
        print(r["ruleId"], line, r["partialFingerprints"]["warplint/v1"])
else:
    for e in doc["findings"]:
        print(e["check"], e["line"], e["fingerprint"])
