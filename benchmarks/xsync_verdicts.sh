#!/bin/sh
# Verdicts of the default gmc check on every test of golang.org/x/sync
# v0.24.0's errgroup, semaphore and singleflight packages, copied from the
# module cache. Prints one row per test (WALL: from the entry's run event to
# its verdict event of --json-stream, planning included, load not) and a
# summary per package (its wall and CPU time, user + system, loading the
# package included).
# Usage: benchmarks/xsync_verdicts.sh [TIME_LIMIT]   (run from the repository root)
# env:   FLAGS (more flags of gmc check, e.g. --parallel 2)
#        GMC (a gmc binary to run instead of one built from ./cmd/gmc: two
#        builds side by side at the same load)
set -e
limit=${1:-10s}
src=$(go env GOMODCACHE)/golang.org/x/sync@v0.24.0
if [ ! -d "$src" ]; then
	echo "golang.org/x/sync@v0.24.0 is not in the module cache; skipped" >&2
	exit 0
fi
dir=$(mktemp -d)
cp -r "$src" "$dir/xsync" && chmod -R u+w "$dir/xsync"
if [ -n "${GMC:-}" ]; then
	cp "$GMC" "$dir/gmc"
else
	go build -o "$dir/gmc" ./cmd/gmc
fi
for p in errgroup semaphore singleflight; do
	start=$(date +%s.%N)
	(cd "$dir/xsync" && /usr/bin/time -f "%U %S" -o "$dir/$p.cpu" "$dir/gmc" check ${FLAGS:-} --json-stream --time-limit "$limit" "./$p" >"$dir/$p.json" 2>"$dir/$p.err") || true
	end=$(date +%s.%N)
	echo "$p $start $end $(tail -n 1 "$dir/$p.cpu" 2>/dev/null | awk '{print $1+$2}')"
done >"$dir/walls"
python3 - "$dir" "$limit" <<'PY'
import json, sys
from datetime import datetime
d, limit = sys.argv[1], sys.argv[2]
lim = float(limit.rstrip("s"))
walls = {l.split()[0]: float(l.split()[2]) - float(l.split()[1]) for l in open(d + "/walls")}
cpus = {l.split()[0]: (l.split()[3] if len(l.split()) > 3 else "?") for l in open(d + "/walls")}
def ts(e):
    t = e["Time"]
    # nanoseconds: keep microseconds for fromisoformat
    head, _, frac = t.rstrip("Z").partition(".")
    return datetime.fromisoformat(head + "." + (frac + "000000")[:6]).timestamp()
print("%-14s %-34s %-9s %-16s %9s %7s %7s" % ("PACKAGE", "TEST", "VERDICT", "BOUND", "STATES", "TIME", "WALL"))
tot = defin = 0
over = []
for p in ["errgroup", "semaphore", "singleflight"]:
    events = []
    for line in open("%s/%s.json" % (d, p)):
        try:
            events.append(json.loads(line))
        except ValueError:
            pass
    if not events:
        print("%-14s (no events: %s)" % (p, open("%s/%s.err" % (d, p)).read().strip().splitlines()[-1:]))
        continue
    n = dn = 0
    runs = {}
    for e in events:
        if e["Action"] == "run":
            runs[e["Test"]] = ts(e)
        if e["Action"] in ("pass", "fail", "skip") and e.get("Test"):
            r = e["Report"]
            b = r.get("bound") or {}
            bound = "exhausted" if b.get("exhausted") else ("preemptions %d" % b["preemptions"] if "preemptions" in b else "-")
            if r.get("problem"):
                bound = "not checked"
            definite = r.get("verdict") in ("error", "no-error")
            wall = ts(e) - runs[e["Test"]]
            if wall > lim * 1.05:
                over.append("%s %.2fs" % (e["Test"], wall))
            n += 1; dn += definite
            print("%-14s %-34s %-9s %-16s %9d %6.2fs %6.2fs" % (p, e["Test"], r.get("verdict"), bound,
                  r.get("stats", {}).get("states", 0), r.get("stats", {}).get("time_s", 0), wall))
    tot += n; defin += dn
    print("%-14s %d/%d definite, wall %.1fs, CPU %ss (package, loading included)" % (p, dn, n, walls[p], cpus[p]))
print("total: %d/%d tests with a definite verdict" % (defin, tot))
print("entries over the limit by more than 5%%: %s" % (", ".join(over) or "none"))
PY
rm -rf "$dir"
