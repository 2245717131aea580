#!/bin/sh
# predict.sh: the predictive race monitor's figures (issue 19 part 2): each
# configuration of benchmarks/suite.json whose name matches REGEXP is
# checked for races (`gmc check --json --check race`) once with the
# monitors A and once with B, seeds 1..SEEDS, and one markdown row per
# configuration and seed says what each found, after how many states and
# seconds, the CPU time (user+sys), and whether the error came with a
# prediction (pf) and how many races B predicted.
#
# usage: benchmarks/predict.sh [GMC] [TIME_LIMIT] [REGEXP]
# env:   A (default lockgraph), B (default lockgraph,predict), SEEDS (default 1)
set -u
cd "$(dirname "$0")/.."
GMC=${1:-bin/gmc}
LIMIT=${2:-20s}
ONLY=${3:-.}
A=${A:-lockgraph}
B=${B:-lockgraph,predict}
SEEDS=${SEEDS:-1}
TMP=$(mktemp -d)
echo "gmc: $(git rev-parse --short HEAD), limit $LIMIT, A=$A, B=$B, load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| configuration | seed | $A: found, states, s, CPU s | $B: found, states, s, CPU s | B: predicted from, predictions, first at |"
echo "|---|---:|---|---|---|"
python3 -c '
import json, re, sys
for c in json.load(open("benchmarks/suite.json")):
    if re.search(sys.argv[1], c["name"]):
        print(c["name"], c["pkg"], c.get("entry", "main"), *c.get("args", []))
' "$ONLY" | while read -r name pkg entry args; do
	seed=1
	while [ "$seed" -le "$SEEDS" ]; do
		for m in "$A" "$B"; do
			# shellcheck disable=SC2086
			/usr/bin/time -f "%U %S" -o "$TMP/time" "$GMC" check --json --check race --monitor "$m" --seed "$seed" \
				--time-limit "$LIMIT" --entry "$entry" "$pkg" -- $args >"$TMP/$m.json" 2>/dev/null
			cp "$TMP/time" "$TMP/$m.time"
		done
		python3 - "$name" "$seed" "$TMP/$A.json" "$TMP/$A.time" "$TMP/$B.json" "$TMP/$B.time" <<'PY'
import json, sys
name, seed = sys.argv[1], sys.argv[2]
def cell(j, t):
    try:
        d = json.load(open(j))
    except Exception:
        return "?", {}, {}
    if "results" in d:
        d = d["results"][0]
    e = d.get("error") or {}
    st = d.get("stats", {})
    u, s = map(float, open(t).read().split("\n")[-2].split())
    found = e.get("kind") or d.get("verdict", "?")
    return f"{found}, {st.get('states', 0):,}, {st.get('time_s', 0):.2f}, {u + s:.2f}", e, d.get("monitor") or {}
a, _, _ = cell(sys.argv[3], sys.argv[4])
b, e, mo = cell(sys.argv[5], sys.argv[6])
pf = e.get("predicted_from")
pfs = "—"
if pf:
    pfs = pf.get("monitor", "?") + " @ " + str(pf.get("states"))
first = mo.get("first_prediction_states")
print(f"| {name} | {seed} | {a} | {b} | {pfs}, {mo.get('predictions', 0)}, {first if first is not None else '—'} |")
PY
		seed=$((seed + 1))
	done
done
rm -rf "$TMP"
