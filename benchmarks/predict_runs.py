#!/usr/bin/env python3
"""Runs to a race with and without the predictive monitor (issue 19 part 2).

For each seed 1..SEEDS and each monitor set (A, B), checks the entries of a
package with

    gmc check --json --check race --flip=false --strategy STRATEGY \
        --seed S --monitor M --entry ENTRY --time-limit LIMIT DIR [-- ARGS]

and prints, per entry, a markdown row: for each monitor set the seeds that
found a race, the runs to it (a random walk's runs: the runs that ended
before it, stats.backtracks, plus the run that showed it; mean, median and
max over the seeds that found it), the mean states, the runs the seeds that
found nothing ended within the limit, and for the last set how many of
the races came with a prediction (error.predicted_from). Runs are what the
issue counts: an execution that ends.

usage: benchmarks/predict_runs.py GMC DIR ENTRY [ARGS...]
env:   SEEDS (20), LIMIT (10s), A (lockgraph), B (lockgraph,predict; empty:
       A only),
       STRATEGY (random), CHECK (race), OUT (a directory keeping the JSON)
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile


def run(gmc, pkg, entry, args, monitor, seed, strategy, limit, check):
    cmd = [gmc, "check", "--json", "--check", check, "--flip=false", "--strategy", strategy,
           "--seed", str(seed), "--monitor", monitor, "--entry", entry, "--time-limit", limit, "."]
    if args:
        cmd += ["--"] + args
    p = subprocess.run(cmd, cwd=pkg, capture_output=True, text=True)
    try:
        d = json.loads(p.stdout)
    except json.JSONDecodeError:
        sys.stderr.write(f"{' '.join(cmd)}: {p.stderr.strip()[:200]}\n")
        return {}, p.stdout
    res = d.get("results", [d])
    return {r.get("entry", entry): r for r in res}, p.stdout


def main():
    gmc, pkg, entry, args = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
    seeds = int(os.environ.get("SEEDS", "20"))
    limit = os.environ.get("LIMIT", "10s")
    mons = [os.environ.get("A", "lockgraph"), os.environ.get("B", "lockgraph,predict")]
    mons = [m for m in mons if m]  # B= : one monitor set only
    strategy = os.environ.get("STRATEGY", "random")
    check = os.environ.get("CHECK", "race")
    out = os.environ.get("OUT") or tempfile.mkdtemp(prefix="predruns.")
    os.makedirs(out, exist_ok=True)
    load = open("/proc/loadavg").read().split()[:3]
    print(f"gmc {gmc}, {pkg} --entry '{entry}' {' '.join(args)}, strategy {strategy}, "
          f"limit {limit}, seeds 1..{seeds}, load {' '.join(load)}, JSON in {out}")
    cells = {}  # (entry, monitor) -> list of result dicts
    for seed in range(1, seeds + 1):
        for m in mons:
            rs, raw = run(gmc, pkg, entry, args, m, seed, strategy, limit, check)
            with open(os.path.join(out, f"{m.replace(',', '+')}-{seed}.json"), "w") as f:
                f.write(raw)
            for name, r in rs.items():
                cells.setdefault((name, m), []).append(r)
    print()
    print("| entry | " + " | ".join(f"{m}: found, runs mean/median/max, states mean" for m in mons) +
          " | with a prediction |")
    print("|---" * (len(mons) + 2) + "|")
    for name in sorted({n for n, _ in cells}):
        row = [name]
        for m in mons:
            rs = cells.get((name, m), [])
            found = [r for r in rs if (r.get("error") or {}).get("kind") == "race"]
            wrong = [r for r in rs if r.get("verdict") == "error" and (r.get("error") or {}).get("kind") != "race"]
            runs = [r["stats"].get("backtracks", 0) + 1 for r in found]
            states = [r["stats"].get("states", 0) for r in found]
            cell = f"{len(found)}/{len(rs)}"
            if wrong:
                cell += f" (+{len(wrong)} other errors)"
            if runs:
                cell += f", {statistics.mean(runs):.1f}/{statistics.median(runs):g}/{max(runs)}, {statistics.mean(states):,.0f}"
            missed = [r for r in rs if r.get("verdict") != "error"]
            if missed:  # the runs a seed that found nothing ended within the limit
                done = [r.get("stats", {}).get("backtracks", 0) for r in missed]
                cell += f"; not found after {min(done):,}–{max(done):,} runs"
            row.append(cell)
        rb = [r for r in cells.get((name, mons[-1]), []) if (r.get("error") or {}).get("kind") == "race"]
        row.append(str(sum(1 for r in rb if (r.get("error") or {}).get("predicted_from"))))
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
