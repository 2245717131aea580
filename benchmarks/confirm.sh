#!/bin/sh
# confirm.sh: gmc confirm on the seed's ports (and their _fixed twins) and,
# when given, on other package directories: one row per package with the
# number of warnings and of each verdict, then one row per warning.
# Each package is checked twice, with the warning-specific reduction and
# the payload abstraction (the defaults) and without either
# (PLAINFLAGS, default --reduce=false --payload=false), and each warning's row shows both
# verdicts, bounds and state counts, the accesses the reduction hid, the
# payload abstraction's sources (kept and dropped: --payload) and why a
# warning stayed unknown.
# Usage: benchmarks/confirm.sh [GMC] [TIME_LIMIT] [DIR...]   (from the repository root)
# Env: OUT (directory for the raw JSON), FLAGS (extra gmc confirm flags),
# PLAIN=0 (skip the run without the reduction).
set -u
GMC=${1:-$(pwd)/bin/gmc}
LIMIT=${2:-10s}
[ $# -ge 2 ] && shift 2 || shift $#
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
dirs="$*"
if [ -z "$dirs" ]; then
	for b in abslist arylist deadlock vecdeadlock0 vecdeadlock1 vecrace; do
		dirs="$dirs benchmarks/$b benchmarks/${b}_fixed"
	done
fi
for d in $dirs; do
	name=$(echo "$d" | tr '/.' '__')
	(cd "$d" && GOPROXY=off GOFLAGS=-mod=mod "$GMC" confirm --json --time-limit "$LIMIT" ${FLAGS:-} . >"$OUT/$name.json" 2>"$OUT/$name.err")
	[ "${PLAIN:-1}" = 0 ] || (cd "$d" && GOPROXY=off GOFLAGS=-mod=mod "$GMC" confirm --json --time-limit "$LIMIT" ${PLAINFLAGS:---reduce=false --payload=false} ${FLAGS:-} . >"$OUT/$name.plain.json" 2>"$OUT/$name.plain.err")
	echo "$d $OUT/$name.json" >>"$OUT/index"
done
python3 - "$OUT/index" <<'PY'
import json, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
print("%-36s %8s %9s %10s %9s %7s" % ("PACKAGE", "WARNINGS", "CONFIRMED", "INFEASIBLE", "UNREACHED", "UNKNOWN"))
detail = []
def pbound(w):
    b = w.get("bound") or {}
    return "exhausted" if b.get("exhausted") else ("%d preemptions" % b["preemptions"] if "preemptions" in b else "")
for d, path in rows:
    try:
        rep = json.load(open(path))
    except Exception:
        err = open(path[:-5] + ".err").read().strip().splitlines()
        print("%-36s failed: %s" % (d, err[-1] if err else "?"))
        continue
    s = rep["summary"]
    print("%-36s %8d %9d %10d %9d %7d" % (d, s["warnings"], s["confirmed"], s["infeasible"], s["unreached"], s["unknown"]))
    try:
        plain = {(w["source"], w["check"], w["pos"]): w for w in json.load(open(path[:-5] + ".plain.json"))["warnings"]}
    except Exception:
        plain = {}
    for w in rep["warnings"]:
        p = plain.get((w["source"], w["check"], w["pos"]), {})
        b = w.get("bound") or {}
        bound = "exhausted" if b.get("exhausted") else ("%d preemptions" % b["preemptions"] if "preemptions" in b else "")
        what = (w.get("error") or {}).get("kind", "") + (" in " + w["entry"] if w.get("entry") else "")
        detail.append("  %-28s %-10s %-22s %-10s %-16s %-22s %8d states %6.2fs | hidden %3d | payload %2d (-%d) | plain %-10s %-16s %8d states%s" % (
            d, w["source"] + ":" + w["check"], w["pos"], w["verdict"], bound, what, w["states"], w["time_s"],
            w.get("hidden_accesses", 0), w.get("payload_sources", 0), w.get("payload_dropped", 0),
            p.get("verdict", "?"), pbound(p), p.get("states", 0), (" | " + w["note"]) if w.get("note") else ""))
print()
print("\n".join(detail))
PY
