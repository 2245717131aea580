#!/bin/sh
# symmetric.sh GMC [LIMIT] [NS]: gmc's states and verdicts on the reduced
# model of errgroup's TestTryGo (benchmarks/symmetric: N identical workers
# sending on one channel) for each N of NS and each strategy. GMC is an
# absolute path to a gmc binary; LIMIT the time limit of each run (10s).
# Times are wall times on a shared machine: compare states.
set -eu
GMC=$1
LIMIT=${2:-10s}
NS=${3:-"2 3 4 6 8 12 16 24 32 42"}
cd "$(dirname "$0")/.."
printf '%-28s %4s %-10s %10s %8s\n' strategy N verdict states time_s
for st in "dfs --check deadlock --sched sync" "dfs" "exhaustive" "dpor"; do
	skip=
	for n in $NS; do
		if [ -n "$skip" ]; then
			printf '%-28s %4s %-10s\n' "$st" "$n" "(skipped: a smaller N ended unknown)"
			continue
		fi
		out=$(N=$n "$GMC" check --json --time-limit "$LIMIT" --strategy $st --entry TestSend ./benchmarks/symmetric 2>/dev/null || true)
		v=$(printf '%s' "$out" | sed -n 's/.*"verdict":"\([^"]*\)".*/\1/p')
		b=$(printf '%s' "$out" | sed -n 's/.*"bound":{\([^}]*\)}.*/\1/p' | tr -d '"')
		s=$(printf '%s' "$out" | sed -n 's/.*"states":\([0-9]*\).*/\1/p')
		t=$(printf '%s' "$out" | sed -n 's/.*"time_s":\([0-9.]*\).*/\1/p')
		printf '%-28s %4s %-10s %10s %8.2f %s\n' "$st" "$n" "$v" "$s" "${t:-0}" "$b"
		[ "$v" = no-error ] || [ "$v" = error ] || skip=1
	done
done
