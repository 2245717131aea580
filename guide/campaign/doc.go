// Package campaign runs benchmark campaigns: every configuration of a suite
// (benchmarks/suite.json) × every search strategy × N trials, and turns the
// trials into the tables and plots of the main seed (Table 3.1: error
// density per strategy; Table 4.1: states, time and memory of the
// successful trials; the overhead ratio, states generated per
// counterexample transition; the hardness curves, error density against
// the number of goroutines).
//
// The model:
//
//   - A campaign is a list of tasks, one per (configuration c, strategy s,
//     trial t), numbered k = (c·S + s)·T + t in suite order, strategy order
//     and trial order. Trial t of every task searches with seed Seed+t,
//     exactly as trial t of `gmc check --seed Seed --trials T` does, so a
//     task's outcome depends on nothing but the task (and, for trials that
//     hit the time limit, on the speed of the machine).
//   - Tasks run on Parallel workers that take them in index order; each
//     configuration's program is loaded once, and each (configuration,
//     strategy) check is prepared once (guide.Prepare) and shared by its
//     trials. Results are written in task order whatever the interleaving,
//     so results.jsonl is the same for any Parallel, except the measured
//     times and memory.
//   - Shard i of n runs the tasks with k mod n = i (round robin, which
//     spreads hard configurations over the shards). Merge reads the
//     outputs of all n shards, checks that they belong to one campaign and
//     cover every task once, and writes the same files a single run
//     writes. Merging one directory with a list of strategies writes a
//     view of it (the seed's Table 4.1 is the guided:random, guided:fsm and
//     guided:pfsm columns of a Table 3.1 campaign).
//   - results.jsonl is written line by line in task order. An interrupted
//     campaign keeps the trials that ended (cancelled ones are not
//     recorded); Spec.Resume runs only the trials that are missing.
//
// Output directory: campaign.json (the manifest: suite, strategies,
// trials, seed, time limit, shard), results.jsonl (one Record a line, in
// task order), summary.csv and summary.md (one row per configuration and
// strategy), and states-<model>.svg/.png and density-<model>.svg/.png
// plots.
//
// Memory is measured per trial as the peak of the Go heap (live and not
// yet collected objects) sampled every 20 ms while the trial runs; it is
// process-wide, so with Parallel > 1 it includes the trials running
// alongside. Run with Parallel 1 when memory matters.
package campaign
