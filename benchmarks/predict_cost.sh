#!/bin/sh
# predict_cost.sh: the monitors' cost in instructions (issue 19 part 4),
# a figure the machine's load does not change: guide's BenchmarkPredict
# (a fixed number of states of a stateful DFS or of random walks, race
# detection on, a race-free model) runs under valgrind --tool=cachegrind,
# once per monitor set (the same test binary, the monitors switched by
# the sub-benchmark's name), each process running the search REPS times
# (-test.count, a fresh monitor each time); a process with a 1-state
# search gives the instructions of the test binary's start and the
# model's loads (one per repetition), which the figures subtract.
# GOMAXPROCS=1 and no asynchronous preemption: an idle P's spinning and
# the preemption signals sysmon sends every 10 ms are instructions that
# grow with the time valgrind takes, which the load sets.
#
# The collector: by default the benchmark runs it as gmc check does
# (GOGC=400), and its cycles start when the pacer says, which depends on
# time: the counts then move by a few hundred million instructions from
# process to process (the marking of the loaded program). GOGC=off in
# the environment turns it off: the counts are then the same from run to
# run within about 0.3 %, and are the mutator's work only (the bytes the
# monitors allocate are -benchmem's figure, which the script prints).
#
# One markdown row per model and strategy: instructions per state of the
# search for each monitor set, and the overhead against the first set.
#
# usage: benchmarks/predict_cost.sh [STATES] [REPS]   (default 20000 1)
# env:   MODELS (default "abslist_fixed arylist_fixed reorder_fixed"),
#        STRATS (default "dfs random"), MONS (default "none lockgraph
#        lockgraph+predict"; predict alone is the other set), OUT (keeps
#        the raw counts), JOBS (processes at once, 2), GOGC
set -eu
cd "$(dirname "$0")/.."
STATES=${1:-20000}
REPS=${2:-1}
MODELS=${MODELS:-abslist_fixed arylist_fixed reorder_fixed}
STRATS=${STRATS:-dfs random}
MONS=${MONS:-none lockgraph lockgraph+predict}
OUT=${OUT:-$(mktemp -d /tmp/predcost.XXXXXX)}
mkdir -p "$OUT"
go test -c -o "$OUT/guide.test" ./guide
echo "gmc $(git rev-parse --short HEAD)+$(git diff --quiet && echo clean || echo dirty), $STATES states, $REPS repetitions, GOGC ${GOGC:-400}, load $(cut -d' ' -f1-3 /proc/loadavg), raw counts in $OUT"
echo
# count FILE MODEL STRATEGY MONITORS STATES COUNT: the instructions of
# one process, into $OUT/FILE, and its -benchmem line into $OUT/FILE.mem
count() {
	f=$1
	shift
	m=$(echo "$3" | sed 's/+/\\+/g')
	for try in 1 2 3; do # (valgrind now and then dies with the Go runtime: again)
		(cd guide && GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 GMC_BENCH_MODEL=$1 GMC_BENCH_STATES=$4 valgrind --tool=cachegrind --cache-sim=no \
			--cachegrind-out-file=/dev/null "$OUT/guide.test" -test.run '^$' -test.benchmem \
			-test.bench "^BenchmarkPredict\$/^$1\$/^$2\$/^$m\$" -test.benchtime 1x -test.count "$5" 2>&1) >"$OUT/$f.log"
		sed -n 's/.*I *refs: *//p' "$OUT/$f.log" | tr -d , >"$OUT/$f"
		grep '^BenchmarkPredict' "$OUT/$f.log" >"$OUT/$f.mem" || true
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
		for m in $MONS; do
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
python3 - "$OUT" "$STATES" "$REPS" "$MODELS" "$STRATS" "$MONS" <<'PY'
import re, sys
out, states, reps, models, strats, mons = sys.argv[1:]
states, reps, models, strats, mons = int(states), int(reps), models.split(), strats.split(), mons.split()
def mem(f):
    # bytes allocated per search (the first repetition's -benchmem figure)
    for line in open(f"{out}/{f}.mem"):
        m = re.search(r"(\d+) B/op", line)
        if m:
            return int(m.group(1))
    return 0
print("| model | strategy | load (G) | " + " | ".join(f"{m}: instr/state, MB/search" for m in mons) + " |")
print("|---|---|---:|" + "---:|" * len(mons))
for model in models:
    load = int(open(f"{out}/{model}.load").read())
    for strat in strats:
        row, base = [], None
        for m in mons:
            n = (int(open(f"{out}/{model}.{strat}.{m}").read()) - load) / reps / states
            b = mem(f"{model}.{strat}.{m}")
            cell = f"{n:,.0f}, {b / 1e6:.0f}"
            if base is None:
                base, bbase = n, b
            else:
                cell += f" (**{100 * (n - base) / base:+.1f} %**, {100 * (b - bbase) / max(bbase, 1):+.1f} % bytes)"
            row.append(cell)
        print(f"| {model} | {strat} | {load / 1e9:.3f} | " + " | ".join(row) + " |")
PY
