#!/bin/sh
# realbugs.sh: measure gmc on real, fixed concurrency bugs of real modules
# (benchmarks/realbugs/bugs.txt: module, buggy and fixed versions, package,
# the fix's regression test, the bug's kind, a link to its issue or pull
# request). For each bug, a copy of the buggy version (with the fix's test
# added when only the fixed version has it) and a copy of the fixed version
# are checked with the default portfolio:
#   gmc check --json --time-limit LIMIT --entry '^TEST$' PKG
# every error is replayed with `gmc replay`, and `go test -race -count=50`
# runs the same test on the same copy. One line per bug and version: the
# verdict, the kind of error, states, seconds, whether the replay reproduced
# it, and what the race detector said. An error on the fixed version is a
# false alarm (or a second bug the fix left): investigate it.
#
# Usage: benchmarks/realbugs.sh [GMC] [TIME_LIMIT] [NAME-REGEXP]
# Env: OUT (directory for the raw JSON and traces; default a temporary
# directory); RACE=0 skips `go test -race`; RACECOUNT (default 50).
# Offline: the module cache is the only proxy; a module version missing from
# it is skipped with a message. FETCH=1 fetches the missing versions first
# (`go mod download` in a scratch module, then `go test -run NONE` in a copy
# so that the test dependencies are cached too); FETCH=only stops there.
set -u
GMC=${1:-$(pwd)/bin/gmc}
LIMIT=${2:-30s}
ONLY=${3:-.}
HERE=$(cd "$(dirname "$0")" && pwd)
DATA=$HERE/realbugs/bugs.txt
MOD=$(go env GOMODCACHE)
OUT=${OUT:-$(mktemp -d)}
WORK=${TMPDIR:-/tmp}/gmc-realbugs
RACECOUNT=${RACECOUNT:-50}
mkdir -p "$WORK" "$OUT"
CACHEPROXY="file://$MOD/cache/download"

# escaped prints the module cache's spelling of a module path (an upper-case
# letter is "!" and the letter in lower case).
escaped() { echo "$1" | sed 's/\([A-Z]\)/!\L\1/g'; }

# prepare MODULE VERSION DIR copies a module version out of the cache.
prepare() {
	rm -rf "$3"
	mkdir -p "$(dirname "$3")"
	cp -r "$MOD/$(escaped "$1")@$2" "$3" && chmod -R u+w "$3"
	[ -f "$3/go.mod" ] || printf 'module %s\n\ngo 1.18\n' "$1" >"$3/go.mod"
}

bugs() { grep -v '^#' "$DATA" | grep -v '^[[:space:]]*$'; }

# setup NAME MODULE VERSION FIXED PKG COPY DIR: a copy of the module version in
# DIR; for the buggy version (VERSION != FIXED) with the fix's test added.
setup() {
	prepare "$2" "$3" "$7"
	[ "$3" = "$4" ] && return
	case "$6" in
	-) ;;
	extract) cp "$HERE/realbugs/testdata/${1}_test.go" "$7/$5/" ;;
	*) cp "$MOD/$(escaped "$2")@$4/$6" "$7/$6" ;;
	esac
}

if [ -n "${FETCH:-}" ]; then
	bugs | while read -r name mod buggy fixed pkg test kind copy link; do
		echo "$name" | grep -Eq "$ONLY" || continue
		for v in "$buggy" "$fixed"; do
			scratch=$(mktemp -d)
			if [ ! -d "$MOD/$(escaped "$mod")@$v" ]; then
				(cd "$scratch" && go mod init gmc-fetch >/dev/null 2>&1 &&
					go mod download -json "$mod@$v" >/dev/null) || echo "fetch $mod@$v failed" >&2
			fi
			if [ -d "$MOD/$(escaped "$mod")@$v" ] && [ -d "$MOD/$(escaped "$mod")@$fixed" ]; then
				setup "$name" "$mod" "$v" "$fixed" "$pkg" "$copy" "$scratch/copy"
				(cd "$scratch/copy" && GOFLAGS=-mod=mod go test -count=1 -run NONE "$pkg" >/dev/null 2>&1) ||
					echo "fetch $mod@$v: the test dependencies of $pkg did not build" >&2
			fi
			rm -rf "$scratch"
		done
	done
	[ "$FETCH" = only ] && exit 0
fi

printf '%-22s %-6s %-15s %-9s %8s %7s %-7s %s\n' BUG COPY VERDICT KIND STATES SECONDS REPLAY "GO-TEST-RACE-x$RACECOUNT"
bugs | while read -r name mod buggy fixed pkg test kind copy link; do
	echo "$name" | grep -Eq "$ONLY" || continue
	missing=
	for v in "$buggy" "$fixed"; do
		[ -d "$MOD/$(escaped "$mod")@$v" ] || missing="$missing $mod@$v"
	done
	if [ -n "$missing" ]; then
		echo "skip $name: not in the module cache:$missing"
		continue
	fi
	for which in buggy fixed; do
		if [ $which = buggy ]; then v=$buggy; else v=$fixed; fi
		d="$WORK/$name/$which"
		setup "$name" "$mod" "$v" "$fixed" "$pkg" "$copy" "$d"
		res="$OUT/$name.$which"
		rm -rf "$res.traces"
		(cd "$d" && GOPROXY=$CACHEPROXY GOSUMDB=off GOFLAGS=-mod=mod "$GMC" check --json \
			--time-limit "$LIMIT" --out "$res.traces" --entry "^$test\$" "$pkg" \
			>"$res.json" 2>"$res.err")
		replay=-
		for tr in "$res.traces"/*.json; do
			[ -f "$tr" ] || continue
			(cd "$d" && GOPROXY=$CACHEPROXY GOSUMDB=off GOFLAGS=-mod=mod "$GMC" replay "$tr" \
				>"$res.replay.out" 2>&1)
			if [ $? -eq 1 ]; then replay=ok; else replay=FAILED; fi
		done
		race=skipped
		if [ "${RACE:-1}" != 0 ]; then
			(cd "$d" && GOPROXY=$CACHEPROXY GOSUMDB=off GOFLAGS=-mod=mod timeout 900 go test -race -timeout 120s \
				-count="$RACECOUNT" -run "^$test\$" "$pkg" >"$res.race" 2>&1)
			rc=$?
			if [ $rc -eq 0 ]; then
				race=pass
			elif [ $rc -eq 124 ]; then
				race=timeout
			else
				fails=$(grep -c -- '^--- FAIL' "$res.race")
				races=$(grep -c 'WARNING: DATA RACE' "$res.race")
				race="FAIL($fails/$RACECOUNT,races=$races)"
				grep -q 'panic: test timed out' "$res.race" && race="$race,hang"
			fi
		fi
		python3 - "$res.json" "$name" "$which" "$replay" "$race" <<'PY'
import json, sys
path, name, which, replay, race = sys.argv[1:]
try:
    d = json.load(open(path))
    r = d["results"][0] if "results" in d else d
except Exception as e:
    print("%-22s %-6s %-8s %s" % (name, which, "FAILED", "no report: %s" % e))
    sys.exit(0)
verdict = r.get("verdict", "?")
b = r.get("bound") or {}
if verdict == "no-error" and b:
    verdict += "(ex)" if b.get("exhausted") else "(<=%s)" % b.get("preemptions", "?")
kind = (r.get("error") or {}).get("kind", "-")
st = r.get("stats") or {}
print("%-22s %-6s %-15s %-9s %8s %7.2f %-7s %s" % (name, which, verdict, kind,
      st.get("states", "-"), st.get("time_s", 0.0), replay, race))
PY
	done
done
