#!/usr/bin/env bash
# A gmc bench campaign as a Slurm job array: array task i runs shard i/N of
# the campaign; a job that depends on the whole array merges the shards
# into the summary of a single run.
#
#   sbatch benchmarks/slurm.sh              # from the repository root
#   # when the array is done (or chain it: see the end of this file)
#   gmc bench merge --out results/merged results/shard-*
#
# Each node needs Go 1.26, gcc, libz3-dev and this repository (gmc loads
# the benchmark programs from source); gmc is built into bin/ below. Every
# shard must use the same suite, strategies, trials, seed and time limit
# (merge checks this). The array size is the shard count.
#SBATCH --job-name=gmc-bench
#SBATCH --array=0-3
#SBATCH --cpus-per-task=2
#SBATCH --mem=12G
#SBATCH --time=24:00:00
#SBATCH --output=results/slurm-%A_%a.log
set -euo pipefail
cd "${SLURM_SUBMIT_DIR:-.}"
mkdir -p results bin
# one build per array task, each into its own file (no race on bin/gmc)
GMC="bin/gmc-${SLURM_ARRAY_JOB_ID:-0}-${SLURM_ARRAY_TASK_ID:-0}"
go build -o "$GMC" ./cmd/gmc
"$GMC" bench \
	--shard "${SLURM_ARRAY_TASK_ID:-0}/${SLURM_ARRAY_TASK_COUNT:-1}" \
	--parallel "${SLURM_CPUS_PER_TASK:-2}" \
	--trials 100 --time-limit 20s \
	--strategies rdfs,guided:pfsm,guided:random,guided:prefer-threads,guided:fsm \
	--filter '^(twostage-(7|8|10)-1|reorder-(5|8|10)-1|wronglock-1-(10|20))$' \
	--out "results/shard-${SLURM_ARRAY_TASK_ID:-0}"
rm -f "$GMC"

# To merge automatically, submit the array and a dependent merge job:
#   jid=$(sbatch --parsable benchmarks/slurm.sh)
#   sbatch --dependency=afterok:$jid --wrap 'go run ./cmd/gmc bench merge --out results/merged results/shard-*'
