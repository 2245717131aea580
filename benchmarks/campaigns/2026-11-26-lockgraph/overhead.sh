#!/bin/bash
# usage: overhead.sh /abs/path/to/gmc REPS — dfs, 10 s, with and without the monitor:
# states per wall second and per CPU second (user+sys), alternating runs
BIN=$1; REPS=${2:-3}
cd "$(dirname "$0")/../../.."
for cfg in "reorder -- 10 1" "reorder_fixed -- 10 1" "account_fixed -- 5 0" "wronglock_fixed -- 10 1" "vecdeadlock -- 1 9"; do
  set -- $cfg; name=$1; shift
  for r in $(seq $REPS); do
    for mon in none lockgraph; do
      /usr/bin/time -f "%U %S" -o ${OUT:-/tmp}/cpu.txt $BIN check --json --monitor $mon --strategy dfs --time-limit 10s ./benchmarks/$name "$@" 2>/dev/null > ${OUT:-/tmp}/o.json
      python3 -c "
import json; d=json.load(open('${OUT:-/tmp}/o.json')); s=d['stats']; m=d.get('monitor') or {}
u,sy=map(float,open('${OUT:-/tmp}/cpu.txt').read().split()[-2:])
print('%-16s %-9s %-8s states=%d time=%.2f cpu=%.2f wallrate=%d cpurate=%d preds=%s' % ('$name','$mon',d['verdict'],s['states'],s['time_s'],u+sy,s['states']/s['time_s'],s['states']/(u+sy),m.get('predictions','-')))"
    done
  done
done
