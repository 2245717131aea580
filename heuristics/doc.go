// Package heuristics ranks the states of a guided search (main seed, Ch. 3
// and Ch. 4).
//
// The meta heuristic is two-tier: states whose path has matched more
// locations of the abstract trace set rank better (tier 1, counted by an
// abstract.Cursor); among equals, the secondary heuristic — an estimate of
// the distance from the state to the next unmatched location — decides
// (tier 2, smaller is better).
//
// Data choices (a branch on a symbolic input with both sides feasible) at a
// branch of the trace rank the side the trace needs first (main seed §2.5);
// the other side gets a secondary value worse than any distance. The meta
// heuristic also reports stalls, the refinement trigger: a goroutine that
// left a matched branch of the trace by the undesired side, other than by a
// data choice and other than into a loop that comes back to the branch.
//
// Secondary heuristics:
//
//   - PFSM (polymorphic distance, Fig. 4.3/4.4): per function, shortest
//     distances over the instruction-level CFG, where stepping over a call
//     whose callee is statically known costs the callee's start→end
//     distance and stepping over a dynamic call (interface method, closure,
//     function value) costs 2. A location in another function is reached
//     through call and go sites whose callees may reach it (call graph),
//     branch and bound over recursive chains, and the goroutine's actual
//     stack is unrolled: returning from the current frame costs its
//     distance to exit, then the caller continues after its call.
//     Distances are computed lazily per (function, target) and memoized.
//   - FSM: the same, context-insensitive: a dynamic call costs the minimum
//     start→end distance over all its possible callees.
//   - Random and prefer-threads: baselines.
//
// Invariants: distances are lower bounds in instruction counts; Inf means
// "not reachable in the program's call structure"; every method is safe for
// concurrent use (memo tables are guarded).
package heuristics
