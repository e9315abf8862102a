"""Validates a SARIF log against the schema and summarises it."""
import json
import sys

import jsonschema

with open(sys.argv[1]) as f:
    schema = json.load(f)
with open(sys.argv[2]) as f:
    log = json.load(f)
jsonschema.validate(log, schema)
print("valid")
run = log["runs"][0]
print("rules: " + ",".join(r["id"] for r in run["tool"]["driver"]["rules"]))
for r in run["results"]:
    loc = r["locations"][0]["physicalLocation"]
    print(f"result {r['ruleId']} {r['level']} {loc['artifactLocation']['uri']} "
          f"{loc['region']['startLine']}:{loc['region']['startColumn']} "
          f"fingerprint={len(r['partialFingerprints'])} fixes={len(r.get('fixes', []))}")
