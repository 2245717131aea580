"""Summarize `gmc check --json` over Go's race-detector suite (run.sh)."""
import glob
import json
import os
import re
import sys

d = json.load(open(sys.argv[1]))
# tests the Go project skips (t.Skip first thing): no expectation
skipped = set()
for f in glob.glob(os.path.join(os.path.dirname(sys.argv[1]), "suite", "*_test.go")):
    skipped |= set(re.findall(r"func (Test\w+)\(t \*testing\.T\) \{\n\s*t\.Skip", open(f).read()))
rows = []
for r in d["results"]:
    name, v = r["entry"], r["verdict"]
    if name in skipped:
        continue
    kind = (r.get("error") or {}).get("kind", "")
    want = "no race" if name.startswith("TestNoRace") else "race"
    if r.get("problem"):
        got = "not checked: " + r["problem"].replace("|", "/")[:80]
        ok = None
    elif v == "error":
        got = kind + " at " + (r.get("error") or {}).get("pos", "?")
        ok = want == "race" and kind == "race"
    else:  # no-error, unknown: no error found
        got = v
        ok = want == "no race"
    flip = ""
    if ok and want == "race":
        e = r.get("error") or {}
        h = e.get("harmful")
        flip = {True: "harmful", False: "harmless", None: "unknown"}[h]
        if h is None:
            flip += ": " + ((e.get("flip") or {}).get("cut") or "no flip").replace("|", "/")[:100]
    rows.append((name, want, got, ok, r.get("stats", {}).get("states", 0), flip))

race = [x for x in rows if x[1] == "race"]
norace = [x for x in rows if x[1] == "no race"]
unchecked = [x for x in rows if x[3] is None]
print(f"skipped by the Go project (not counted): {', '.join(sorted(skipped)) or 'none'}")
print(f"TestRace*: {sum(1 for x in race if x[3])} of {len(race)} found; "
      f"TestNoRace*: {sum(1 for x in norace if x[3] is False)} of {len(norace)} reported; "
      f"not checked: {len(unchecked)} of {len(rows)} ({100*len(unchecked)/max(len(rows),1):.1f} %)")
flips = [x[5].split(":")[0] for x in race if x[3]]
print(f"flips of the TestRace* found: {flips.count('harmful')} harmful, "
      f"{flips.count('harmless')} harmless, {flips.count('unknown')} unknown")
print()
print("| test | expected | gmc | states | flip |")
print("|---|---|---|---|---|")
for name, want, got, ok, states, flip in rows:
    mark = {True: "", False: " **wrong**", None: " (not checked)"}[ok]
    print(f"| {name} | {want} | {got}{mark} | {states} | {flip} |")
