#!/bin/sh
# predict_cost.sh: the predictive race monitor's cost in instructions
# (issue 19 part 4), a figure the machine's load does not change: guide's
# BenchmarkPredict (a fixed number of states of a stateful DFS or of
# random walks, race detection on, a race-free model) runs under valgrind
# --tool=cachegrind, once without and once with the monitor (the same
# test binary, the monitor switched by the sub-benchmark's name), each
# process running the search REPS times (-test.count, a fresh monitor
# each time); a process with a 1-state search gives the instructions of
# the test binary's start and the model's loads (one per repetition), which the figures
# subtract. GOMAXPROCS=1 and no asynchronous preemption: an idle P's
# spinning and the preemption signals sysmon sends every 10 ms are
# instructions that grow with the time valgrind takes, which the load
# sets. One markdown row per model and strategy: the instructions of
# one search without (G), with (G), and the overhead.
#
# usage: benchmarks/predict_cost.sh [STATES] [REPS]   (default 10000 2)
# env:   MODELS (default "abslist_fixed arylist_fixed reorder_fixed"),
#        STRATS (default "dfs random"), A (default none), B (default
#        predict; lockgraph and lockgraph+predict are the other monitor
#        sets), OUT (keeps the raw counts), JOBS (processes at once, 2)
set -eu
cd "$(dirname "$0")/.."
STATES=${1:-10000}
REPS=${2:-2}
MODELS=${MODELS:-abslist_fixed arylist_fixed reorder_fixed}
STRATS=${STRATS:-dfs random}
A=${A:-none}
B=${B:-predict}
OUT=${OUT:-$(mktemp -d /tmp/predcost.XXXXXX)}
mkdir -p "$OUT"
go test -c -o "$OUT/guide.test" ./guide
echo "gmc $(git rev-parse --short HEAD)+$(git diff --quiet && echo clean || echo dirty), $STATES states, $REPS repetitions, load $(cut -d' ' -f1-3 /proc/loadavg), raw counts in $OUT"
echo
echo "| model | strategy | load only (G) | $A (G) | $B (G) | overhead |"
echo "|---|---|---:|---:|---:|---:|"
# count FILE MODEL STRATEGY MONITORS STATES COUNT: the instructions of
# one process, into $OUT/FILE
count() {
	f=$1
	shift
	for try in 1 2 3; do # (valgrind now and then dies with the Go runtime: again)
		(cd guide && GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 GMC_BENCH_MODEL=$1 GMC_BENCH_STATES=$4 valgrind --tool=cachegrind --cache-sim=no \
			--cachegrind-out-file=/dev/null "$OUT/guide.test" -test.run '^$' \
			-test.bench "^BenchmarkPredict\$/^$1\$/^$2\$/^$3\$" -test.benchtime 1x -test.count "$5" 2>&1) |
			sed -n 's/.*I *refs: *//p' | tr -d , >"$OUT/$f"
		if [ -s "$OUT/$f" ]; then
			return
		fi
		echo "$f: try $try gave no count" >&2
	done
}
JOBS=${JOBS:-2}
n=0
for model in $MODELS; do
	count "$model.load" "$model" dfs none 1 "$REPS" &
	n=$((n + 1))
	for strat in $STRATS; do
		for m in $A $B; do
			if [ "$n" -ge "$JOBS" ]; then
				wait
				n=0
			fi
			count "$model.$strat.$m" "$model" "$strat" "$m" "$STATES" "$REPS" &
			n=$((n + 1))
		done
	done
done
wait
for model in $MODELS; do
	for strat in $STRATS; do
		python3 - "$OUT" "$model" "$strat" "$A" "$B" "$REPS" <<'PY'
import sys
out, model, strat, a, b, reps = sys.argv[1:]
reps = int(reps)
def get(m, s=strat):
    return int(open(f"{out}/{model}.{s}.{m}").read())
load = int(open(f"{out}/{model}.load").read())
na, nb = (get(a) - load) / reps, (get(b) - load) / reps
print(f"| {model} | {strat} | {load / 1e9:.3f} | {na / 1e9:.3f} | {nb / 1e9:.3f} | {100 * (nb - na) / na:+.1f} % |")
PY
	done
done
