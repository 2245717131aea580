#!/bin/sh
# Verdicts of the default gmc check on every test of golang.org/x/sync
# v0.24.0's errgroup, semaphore and singleflight packages, copied from the
# module cache. Prints one row per test and a summary per package.
# Usage: benchmarks/xsync_verdicts.sh [TIME_LIMIT]   (run from the repository root)
set -e
limit=${1:-10s}
src=$(go env GOMODCACHE)/golang.org/x/sync@v0.24.0
if [ ! -d "$src" ]; then
	echo "golang.org/x/sync@v0.24.0 is not in the module cache; skipped" >&2
	exit 0
fi
dir=$(mktemp -d)
cp -r "$src" "$dir/xsync" && chmod -R u+w "$dir/xsync"
go build -o "$dir/gmc" ./cmd/gmc
for p in errgroup semaphore singleflight; do
	start=$(date +%s.%N)
	(cd "$dir/xsync" && "$dir/gmc" check --json --time-limit "$limit" "./$p" >"$dir/$p.json" 2>"$dir/$p.err") || true
	end=$(date +%s.%N)
	echo "$p $start $end"
done >"$dir/walls"
python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
walls = {l.split()[0]: float(l.split()[2]) - float(l.split()[1]) for l in open(d + "/walls")}
print("%-14s %-48s %-9s %-20s %10s %7s" % ("PACKAGE", "TEST", "VERDICT", "BOUND", "STATES", "TIME"))
tot = defin = 0
for p in ["errgroup", "semaphore", "singleflight"]:
    try:
        rep = json.load(open("%s/%s.json" % (d, p)))
    except Exception:
        print("%-14s (no JSON: %s)" % (p, open("%s/%s.err" % (d, p)).read().strip().splitlines()[-1:]))
        continue
    n = dn = 0
    for r in rep["results"]:
        b = r.get("bound") or {}
        bound = "exhausted" if b.get("exhausted") else ("preemptions %d" % b["preemptions"] if "preemptions" in b else "-")
        definite = r.get("verdict") in ("error", "no-error")
        n += 1; dn += definite
        print("%-14s %-48s %-9s %-20s %10d %6.2fs" % (p, r["entry"], r.get("verdict"), bound,
              r.get("stats", {}).get("states", 0), r.get("stats", {}).get("time_s", 0)))
    tot += n; defin += dn
    print("%-14s %d/%d definite, wall %.1fs" % (p, dn, n, walls[p]))
print("total: %d/%d tests with a definite verdict" % (defin, tot))
PY
rm -rf "$dir"
