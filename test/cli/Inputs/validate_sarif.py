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
rules = run["tool"]["driver"]["rules"]
print("rules: " + ",".join(r["id"] for r in rules))
for r in rules:
    help_ = r.get("help", {})
    print(f"rule {r['id']} help.text={'text' in help_} "
          f"help.markdown={'markdown' in help_} "
          f"helpUri={r.get('helpUri', '-')}")
print("automation: " + run["automationDetails"]["id"])
print("columnKind: " + run["columnKind"])
print("srcroot: " + run["originalUriBaseIds"]["%SRCROOT%"]["uri"])
for r in run["results"]:
    loc = r["locations"][0]["physicalLocation"]
    art = loc["artifactLocation"]
    print(f"result {r['ruleId']} {r['level']} {art.get('uriBaseId', '-')} "
          f"{art['uri']} {loc['region']['startLine']}:{loc['region']['startColumn']} "
          f"fingerprint={len(r['partialFingerprints'])} fixes={len(r.get('fixes', []))}")
