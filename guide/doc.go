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
//     and its best state resumed (stochastic backtracking). When the state
//     the search goes on with left a branch of the trace by the undesired
//     side (a stall, Fig. 2.4 line 14), Check refines the trace set
//     (package refine) and restarts from the initial state, unless
//     CheckConfig.NoRefine is set.
//   - dfs, rdfs (successors shuffled), bfs: stateful searches with a visited
//     set of canonical state hashes.
//   - random: a random walk restarted from the initial state (stateless).
//   - exhaustive: depth-first search of the whole state space with sleep
//     sets (a partial-order reduction) over the visited set.
//
// The search sees states only through the vm API (choices, step, hash,
// error, goroutine stacks as locations); it knows nothing of SSA beyond
// locations.
//
// Guarantees: a result with verdict "error" carries a choice sequence that
// replays, from the initial state, to the same error. "no-error" is
// reported only when the strategy explored its whole space without hitting
// a bound: for exhaustive, dfs and bfs that is every reachable state within
// the depth bound never having been reached; guided and random searches
// never claim "no-error" (they are incomplete) and answer "unknown" when a
// bound (time, states, depth, backtrack capacity) stops them.
//
// Time: every search runs under the time model of its machine
// (vm.Options.Timing). A check's own searches use the check's model (by
// default virtual time as testing/synctest runs it: no timer fires before
// its duration has passed); with CheckConfig.FallbackTimers the fallback
// adds a walk in real time (vm.Options.StepTime). None lets a timer fire
// at an arbitrary point (vm.Options.TimerChoice) unless the check's own
// options do. TrialResult.Machine is the machine a counterexample was
// found on, whose options (and so its time model) a trace must record.
package guide
