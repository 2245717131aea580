#!/bin/sh
# Go's race-detector suite under gmc (issue 14): copies the runnable test
# files of $(go env GOROOT)/src/runtime/race/testdata (cgo, finalizer,
# synctest and regression tests aside; runtime.RaceDisable/RaceEnable
# removed) into a scratch module, checks every TestRace*/TestNoRace* with
#   gmc check --json --check race --entry "$ENTRY" --time-limit $LIMIT
# and prints the figures and the per-test list (markdown, for RESULTS.md).
#
# usage: benchmarks/racesuite/run.sh [FILE...]   (default: every runnable file)
# env:   GMC (default: builds ./cmd/gmc), LIMIT (default 3s), OUT (scratch dir),
#        MONITOR (gmc check --monitor; default: gmc's), ENTRY (the tests to
#        check, a regexp for --entry; default '^Test(No)?Race')
set -eu
cd "$(dirname "$0")/../.."
LIMIT=${LIMIT:-3s}
ENTRY=${ENTRY:-'^Test(No)?Race'}
OUT=${OUT:-$(mktemp -d /tmp/racesuite.XXXXXX)}
if [ -z "${GMC:-}" ]; then
	go build -o "$OUT/gmc" ./cmd/gmc
	GMC=$OUT/gmc
fi
SRC=$(go env GOROOT)/src/runtime/race/testdata
mkdir -p "$OUT/suite"
if [ $# -eq 0 ]; then
	set -- $(cd "$SRC" && ls *_test.go | grep -v -e cgo -e finalizer -e synctest -e regression -e '^main_test.go$')
fi
for f in "$@"; do
	sed -e 's/^\(\s*\)runtime\.Race\(Disable\|Enable\)()/\1\/\/ &/' "$SRC/$f" >"$OUT/suite/$f"
done
printf 'module racesuite\n\ngo 1.26\n' >"$OUT/suite/go.mod"
# imports only the removed lines used
(cd "$OUT/suite" && gofmt -l . >/dev/null && go vet . >/dev/null 2>&1 || true)
echo "gmc: $(git rev-parse --short HEAD), limit $LIMIT, monitor ${MONITOR:-default}, files: $*, entry $ENTRY, load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
(cd "$OUT/suite" && "$GMC" check --json --check race ${MONITOR:+--monitor "$MONITOR"} --entry "$ENTRY" --time-limit "$LIMIT" .) >"$OUT/result.json" 2>"$OUT/stderr" || true
python3 "$(pwd)/benchmarks/racesuite/summarize.py" "$OUT/result.json"
