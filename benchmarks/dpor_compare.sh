#!/bin/sh
# DPOR against the exhaustive strategy through gmc check: each
# configuration of benchmarks/suite.json whose name matches FILTER (default:
# the _fixed twins that are not marked hard) is checked with
# --strategy exhaustive (iterated preemption bounding plus the sleep-set
# search with a visited set) and --strategy dpor (source-DPOR with sleep
# sets, stateless), one after the other, each within TIME_LIMIT. Prints
# one row per configuration: verdict, bound and states of each.
# Usage: benchmarks/dpor_compare.sh BIN [TIME_LIMIT] [FILTER]   (from the repository root)
set -e
bin=${1:?usage: benchmarks/dpor_compare.sh BIN [TIME_LIMIT] [FILTER]}
limit=${2:-10s}
filter=${3:-_fixed}
python3 - "$bin" "$limit" "$filter" <<'PY'
import json, re, subprocess, sys, time
bin, limit, filt = sys.argv[1], sys.argv[2], sys.argv[3]
suite = json.load(open("benchmarks/suite.json"))
def run(c, strategy):
    cmd = [bin, "check", "--json", "--strategy", strategy, "--time-limit", limit, c["pkg"]]
    if c.get("entry") and c["entry"] != "main":
        cmd[2:2] = ["--entry", c["entry"]]
    if c.get("args"):
        cmd += ["--"] + c["args"]
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.time() - t0
    try:
        r = json.loads(p.stdout)
    except ValueError:
        return ("fail", "-", 0, wall)
    b = r.get("bound") or {}
    bound = "exhausted" if b.get("exhausted") else ("k=%d" % b["preemptions"] if "preemptions" in b else "-")
    if r.get("error"):
        bound = r["error"]["kind"]
    return (r["verdict"], bound, int(r["stats"]["states"]), wall)
print("| configuration | exhaustive: verdict | bound | states | wall s | dpor: verdict | bound | states | wall s |")
print("|---|---|---|---|---|---|---|---|---|")
for c in suite:
    if not re.search(filt, c["name"]) or (filt == "_fixed" and c.get("hard")):
        continue
    ex, dp = run(c, "exhaustive"), run(c, "dpor")
    print("| %s | %s | %s | %d | %.1f | %s | %s | %d | %.1f |" % ((c["name"],) + ex + dp))
    sys.stdout.flush()
PY
