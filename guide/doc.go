// Package guide searches the states of a program under the VM for an
// error or a goal (main seed, Fig. 2.4, 3.2, 3.4, 3.5).
//
// Strategies:
//
//   - guided: greedy depth-first search ranked by the meta heuristic
//     (tier 1: abstract-trace locations matched along the path; tier 2: a
//     secondary heuristic such as PFSM distance to the next location), ties
//     broken at random with the search seed; the other successors go to a
//     bounded backtrack set; at a dead end a meta level is picked at random
//     and its best state resumed (stochastic backtracking). Successors are
//     lazy: the choices of a state are ranked before they run
//     (heuristics.Estimator: the distance from where each goroutine
//     stands), the best runs, and the others run only when the search
//     backtracks to them; only run choices count as states
//     (CheckConfig.Eager runs them all first, as the seed does). When the
//     state the search goes on with left a branch of the trace by the
//     undesired side (a stall, Fig. 2.4 line 14), Check refines the trace
//     set (package refine) and the search goes on where it stalled, its
//     saved states ranked again against the refined set (setrun.go,
//     guided.rebase); it starts again from the initial state only when
//     the refinement invalidated what it explored (Stats.Restarts;
//     CheckConfig.RestartRefine always does, as the seed does), unless
//     CheckConfig.NoRefine is set.
//   - dfs, rdfs (successors shuffled), bfs: stateful searches with a visited
//     set of canonical state hashes.
//   - random: a random walk restarted from the initial state (stateless).
//   - exhaustive: rounds with a budget of states that doubles from 1,000,
//     each spending a quarter on a depth-first search of the whole state space
//     with sleep sets (a partial-order reduction) over the visited set (a
//     quarter of the states; until bound 0 completes, skipped in a round
//     when that search has had more than a quarter of the time:
//     boundRun.fullTurn), and
//     the rest on iterated preemption bounding (bounded.go, CHESS): every
//     schedule with at most k preemptions, for k = 0, 1, 2, … (a
//     preemption is switching away from the goroutine that ran last while
//     it is enabled and did not call runtime.Gosched; switches after a
//     block or yield, timer firings and data choices are free), depth
//     first, without sleep sets (they do not combine soundly with the
//     bound), over a visited set of (fingerprint, preemptible goroutine) ->
//     fewest preemptions. A bound whose search completes is the verdict's
//     bound; a bounded search the bound never cut, or a finished full
//     search, exhausts the space.
//   - dpor: source-DPOR with sleep sets (dpor.go; Abdulla et al., POPL
//     2014), stateless: one execution of every class of executions equal
//     up to reordering adjacent independent transitions (dependence from
//     the VM's footprints), no visited set, every data and timer choice
//     explored. "no-error" (exhausted) only when it ends; an execution cut
//     by the depth bound (a spin loop: it never merges states) makes it
//     "unknown", and so does an execution that ends with live goroutines
//     (dpor.go). Once made complete on lock-order deadlocks (every
//     dependent pair a race), it explores more states than the exhaustive
//     strategy on the benchmarks (benchmarks/RESULTS.md, "Session 7:
//     definite verdicts"), so the default portfolio does not use it.
//
// When races are errors, the exhaustive searches (this strategy, the
// bounded search of the portfolio below) run with scheduling points at
// synchronization operations only (syncpoints.go: every error of the finer
// scheduling is found, or a data race before it, within the same
// preemption bound); their counterexamples record that scheduling. The
// bounded search at bound k is resumed from round to round (the states
// whose subtrees a round explored to the end are not explored again), and
// withdraws its claim only when it merges a state on its current path while
// a timer is pending (cutCycle, bounded.go); the full search withdraws it
// at any merge with a pending timer, and once it has, it no longer runs.
// Source-DPOR (dpor.go, the dpor strategy) is measured against the
// sleep-set search by TestPOR and benchmarks/dpor_compare.sh.
//
// Symmetric choices (symmetric.go): at a state with interchangeable
// goroutines (twins: an automorphism of the state maps any of them onto
// any other, vm.State.Twins), the full sleep-set search, the bounded search
// (every bound) and dfs, rdfs run the choices of one twin of each class
// (the first that may take part) and leave out the alike choices of the
// others, whose successors are the same state up to a renaming of
// goroutines: every error through a left-out choice has a mirror through
// the representative's. Twins with a sleeping choice take no part (their
// mirrors are explored), nor does the goroutine that ran last under a
// preemption bound; left-out choices do not go to sleep sets; a state
// whose earlier visit is being completed (the state-caching rule) leaves
// none out. The verdicts mean what they meant: the reduction changes
// which of two mirrored executions is run, not what is claimed.
// GMC_NO_SYMMETRY=1 (or Config.NoSymmetry) turns it off, for comparisons.
//
// Solo subtests (soloPick, bounded.go): when a test's function returns,
// its parallel subtests are released together, and N leaves that share
// nothing make 2^N subsets of finished leaves. At a state where a
// released subtest may run without a preemption (the goroutine that ran
// last blocked, yielded or ended, or is that subtest) and vm.Machine.Solo
// finds, by running it alone to its end, that nothing it writes or
// synchronizes on is reachable by another goroutine, the bounded search
// runs it alone to its end as a chain of single successors: every
// execution from the state is equivalent to one that runs it first (a
// persistent set of one goroutine; the same errors, a race reported in
// either, no more preemptions). A table of 24 such leaves is exhausted
// in a few hundred states (vm/solo_test.go); leaves that share a mutex, a
// channel or a variable are interleaved as before. A released subtest
// that runs sequential subtests of its own goes alone with them (its
// group: the goroutines it starts, one runnable at a time; the chain
// follows vm.OnlyGroupChoice).
//
// The default gmc check (guided, CheckConfig.Bounded) is a portfolio: each round of runTrial
// runs the bounded exhaustive search first (its round of the budget above,
// resumed from round to round; skipped in a round when it has taken more
// than a third of the time so far, three quarters when the guided search
// has no trace set left to follow (nothingToChase) or half of the time
// limit has gone (lateShare: the suite's bugs are found before, passing
// tests with a long bound 0 need the time); with three quarters a round
// takes the states that fill its share of the time, boundedSlice), then
// the guided search along each trace
// set and the fallback, so a small space gets its verdict at once and a
// larger one the highest preemption bound completed when the time runs out.
// The share is kept by time between rounds too: after each trace set's
// run and each walk of the fallback, a bounded search more than minTurn
// behind its share takes a turn that makes it up (share.go, turnSlice;
// a guided round may run for seconds).
// Where states are slow (a test of a thousand goroutines: milliseconds a
// state) the shares are kept by time as well: every turn of a round (the
// bounded search's, the trace sets' together, each walk's, the early
// search's rounds) also stops at the time its states get at a millisecond
// each, at most a sixteenth of the time limit doubled each round
// (share.go, turnCap; a paused search goes on where it stopped), and the
// fallback's plain walk takes a turn between the others' whenever it is
// more than minTurn behind a sixth of the time (walkShare). Where states
// are cheaper than that, turns end by their states as before.
// With a core to spare for each trial (CheckConfig.BoundedCore: gmc check
// on two cores or more, --parallel's default, with one trial) the bounded search does not take turns: it
// runs on a core of its own for the whole time limit, from the trial's
// start (boundedcore.go), while the guided search and the walks share the
// trial's core as above — after a quarter of the time limit, pausing
// between their turns as long as they ran (share.go, corePause: beside
// them the bounded search makes its states about a third slower than
// alone, the two sides sharing the machine's memory and the collector);
// whichever side reaches a verdict that ends the
// trial (an error, or the space exhausted) stops the other, and a no-error
// verdict is the bound the core's search completed. The outcome then
// depends on the timing of the two cores, as parallel trials' does; every
// counterexample replays either way (on the machine the trial names).
// With CheckConfig.Bounded (gmc check) the time limit covers planning: the
// abstract trace sets get a quarter of it (those built by then are used;
// the construction then stops, abstract.Config.Stop, rather than run on
// behind the check and the next entries' checks), the trials what is
// left. A transition still running when the limit
// passes is cut there (vm.Machine.StepWithin, searcher.step): the search
// stops at once and reports nothing from the cut state. The call graph
// the plans slice over is built once per program (slice.New), not per
// entry: a package's tests share it, with its numbering for SeqReaches, its
// index of stores, the static warnings (warn.Run) and the root functions.
//
// The search sees states only through the vm API (choices, step, hash,
// error, goroutine stacks as locations); it knows nothing of SSA beyond
// locations.
//
// Guarantees: a result with verdict "error" carries a choice sequence that
// replays, from the initial state, to the same error. "no-error" carries
// its extent: Result.Exhausted (every reachable state explored without
// hitting the depth bound: dfs, bfs, exhaustive) or Result.Preemptions = k
// (every schedule with at most k preemptions explored, for the data inputs
// explored; the exhaustive strategy and the default check). The guided
// search and random walks alone never claim "no-error" (they are
// incomplete); "unknown" means not even bound 0 completed before a bound
// (time, states, depth) stopped the search. Visited sets hold 64-bit
// fingerprints (vm.State.Hash), so a claim assumes no two states that
// differ collide.
//
// Skipped tests: the machines of a check share a vm.Ends, which counts
// the executions whose entry returned and those of them whose test
// skipped (go test's SKIP: the entry's T called t.SkipNow and did not
// fail). When no trial found an error and at least one execution ended,
// every one skipped, CheckResult.Skipped is set and EntryVerdict is
// "skip" (VerdictSkip): nothing past the skip ran, so no-error would
// claim what was not explored. Verdict keeps the searches' verdict (the
// bound of the skips, or unknown), which gmc confirm and the campaigns
// read; an error in any execution wins, and a test that skips in some
// executions only keeps its verdict.
//
// Time: every search runs under the time model of its machine
// (vm.Options.Timing). A check's own searches use the check's model (by
// default virtual time as testing/synctest runs it: no timer fires before
// its duration has passed); with CheckConfig.FallbackTimers the fallback
// adds a walk in real time (vm.Options.StepTime). None lets a timer fire
// at an arbitrary point (vm.Options.TimerChoice) unless the check's own
// options do. TrialResult.Machine is the machine a counterexample was
// found on, whose options (and so its time model) a trace must record.
//
// Warnings (confirm.go, gmc confirm): each static warning is checked on
// the entries whose call graph may reach its code (a backward walk over
// the VTA call graph, through functions used as values; a walk that meets
// a package initializer admits every entry): the guided search toward its
// locations (CheckConfig.Guides, not goals) in a portfolio with the
// bounded exhaustive search. Only the errors that show the warning are
// reported (vm.Options.Quiet ends an execution at any other error, as its
// crash would), so "infeasible" holds for every execution the bound covers: no execution of
// a reaching entry shows it, exhausted or up to k preemptions (the weakest
// entry's bound). Each entry is checked first with every race an error,
// so that the bounded search schedules at synchronization only
// (syncpoints.go); a race away from the warning voids that argument and
// the rest of the entry's share goes to a check with races reported at the
// warning's lines only (vm.Options.RaceAt). "unreached": no entry reaches
// its code; only a function called by reflection alone escapes the walk.
//
// Warning-specific reduction (reduce.go, ConfirmConfig.Reduce): per warning
// and entry, slice.Relevant closes the warning's targets and every
// schedule-relevant instruction of the code under test (branches,
// synchronization, calls out of it, panicking operands) under data,
// control and inter-goroutine memory dependence; the loads and stores of
// any other memory are not scheduling points (vm.Options.Invisible). The
// invariant: such an access only moves data into other such accesses or
// into calls that neither synchronize nor panic (formatting, test logs),
// so its order against other goroutines decides neither a branch nor a
// block nor whether a target is reached, and every verdict holds for the
// unreduced program too; it is recorded in traces (vm.Options.ReducedFor)
// and recomputed by replay.
//
// Runtime monitors (lockgraph.go, CheckConfig.Monitors): the lock-graph
// monitor observes every run of a trial (vm.LockObserver) and predicts
// lock-order deadlocks from runs that did not deadlock (GoodLock with gate
// locks, read-read and goroutine-start ordering). A prediction only adds a
// trace set toward the cycle's waiting acquisitions, searched first; the
// searches that can pause (the early and bounded searches) pause at a new
// prediction. A prediction is never a verdict: the check reports only the
// deadlock a search reaches (TrialResult.PredictedFrom names the
// prediction it shows), so the monitor changes which states are explored
// first, never what an error or a no-error verdict means. The predictive
// race monitor (predict.go, wcp.go; Monitors.Predict) observes the runs
// too (vm.RunObserver: each run's log of the race detector's events when
// it ends, and at checkpoints of long runs) and predicts the races weak
// causal precedence finds in a run that had none under happens-before
// (a run whose goroutines did what an analyzed run's did, in another
// interleaving, is not analyzed again: runSignature);
// each adds a trace set toward the race's two accesses, taken at the
// trial's next poll (it does not pause the search under way), and steers
// the next runs of the random walks (gmc check --strategy random, and the
// plain walk of a guided check's fallback) as RaceFuzzer does
// (racefuzz.go): a goroutine about to take one of the two accesses waits
// until another stands at the other, then both run. Only a race the
// happens-before detector sees in an executed run is reported.
//
// Race flipping (flip.go, Flip; gmc check flips every race it reports):
// the counterexample is translated to a machine without race detection
// whose scheduling points include every shared access and the race's two
// accesses (a superset of the counterexample's: each of its transitions
// becomes one or more, up to where its goroutine stood after it; the
// translation must make the same race where race detection is on). From
// the state before the previous access, the accesses run in both orders:
// "as found" (the previous access, then the other goroutines as recorded
// up to and including the current access) and "flipped" (the previous
// goroutine postponed until the current access has run; a goroutine whose
// recorded step is no longer enabled is postponed too). From each, the
// bounded exhaustive search and then the guided search along the plan's
// trace sets look for a failure (panic, assertion, deadlock, leak; races
// are not errors there). Harmful means a failure that replays from the
// initial state on that machine (its trace records the machine's
// scheduling points and checks); harmless means both searches ended with
// a no-error verdict (exhausted or up to k preemptions) — a claim about
// the schedules going on from this occurrence of the race, not about every
// schedule that reaches its two accesses; otherwise unknown. A harmful verdict names a failure reachable after the race in
// that order, not necessarily caused by it alone.
package guide
