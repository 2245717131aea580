#!/bin/sh
# stdlib_modules.sh: check the tests of real modules from the local module
# cache (offline: GOPROXY=off) and print gmc's summary table per package.
# Usage: benchmarks/stdlib_modules.sh [GMC] [TIME_LIMIT]
# A module missing from the cache is skipped with a message.
set -u
GMC=${1:-$(pwd)/bin/gmc}
LIMIT=${2:-3s}
MOD=$(go env GOMODCACHE)
WORK=${TMPDIR:-/tmp}/gmc-stdlib-modules
mkdir -p "$WORK"
for spec in \
	"golang.org/x/sync@v0.24.0 ./errgroup ./semaphore ./singleflight" \
	"github.com/patrickmn/go-cache@v2.1.0+incompatible ." \
	"github.com/sourcegraph/conc@v0.3.0 . ./iter ./pool ./panics ./stream" \
	"go.uber.org/atomic@v1.7.0 ."; do
	set -- $spec
	m=$1
	shift
	if [ ! -d "$MOD/$m" ]; then
		echo "skip $m: not in the module cache"
		continue
	fi
	d="$WORK/$(echo "$m" | tr '/@' '__')"
	rm -rf "$d"
	cp -r "$MOD/$m" "$d"
	chmod -R u+w "$d"
	[ -f "$d/go.mod" ] || printf 'module %s\n\ngo 1.18\n' "${m%@*}" >"$d/go.mod"
	for p in "$@"; do
		echo "== $m $p"
		(cd "$d" && GOPROXY=off GOFLAGS=-mod=mod "$GMC" check --strategy exhaustive \
			--entry all --time-limit "$LIMIT" "$p" 2>&1 | sed -n '/^ENTRY/,$p')
	done
done
