// Package refine refines an abstract trace set when the guided search
// stalls at a branch of it (main seed §2.6, Fig. 2.6): the execution
// reached the branch but could not take the side the trace needs, because
// the variables the predicate reads have values that only another
// goroutine can change. The backward slices behind the abstract system
// (package abstract) follow sequential execution only; refinement adds the
// inter-goroutine dependence they leave out.
//
// # Model
//
// A stall names a trace π of the set and the index k of its branch step:
// π = π_pre ∘ π_i with π_i starting at the branch l_branch. Refine
//
//  1. collects L_v, the stores that may define a shared variable the
//     predicate of l_branch reads: the memory classes loaded by the
//     predicate's value sources (globals, fields, elements, dereferences;
//     locals excluded), and for each class the stores that may write it
//     (slice.Program.MayDefine, may-alias as in the slices), restricted to
//     functions the entries reach and that a goroutine other than the one
//     at the branch can execute (a goroutine start other than the branch's
//     reaches the store's function by calls, or the store is in code of a
//     go-started function, which may run as several goroutines);
//  2. picks l_v in L_v at random (the search seed's generator) and an
//     abstract trace π_v to it from the abstract system of l_v (Eq. 2.1–2.7
//     with l_v as the target), at random among those with the fewest calls;
//  3. if π_pre and π_v acquire the same lock (equal abstract.LockKey), appends
//     to π_v the release matching π_v's acquisition (Node.Releases; for a
//     deferred release, the function's RunDefers, where it takes effect);
//     after the definition and after the release π_v gets the instruction
//     that follows them, since a search matches a step when a goroutine
//     stands at it, before executing it;
//  4. merges: the steps π_v shares with the start of π_pre (when both start
//     in an entry's goroutine) are dropped, and the rest of π_v goes into
//     π_pre just before l_branch, or before π_pre's first acquisition of a
//     lock π_v also takes (so the defining goroutine is not blocked by the
//     goroutine at the branch), but after every step of π_pre in code that
//     may start π_v's goroutine;
//  5. replaces π by the merged trace ∘ π_i.
//
// Step 4 differs from the seed's π_v ∘ π_pre: Go goroutines are spawned by
// other goroutines at run time, so the start of π_pre (for example main's
// go statements) may have to run before π_v can begin, and a definition
// placed early may be overwritten or read too soon (a check-then-act
// needs the other goroutine's write between its read and its check). The
// constraint the seed needs — the definition (and its release) before the
// branch and before a competing acquisition — is kept.
//
// # Invariants
//
// Refine never changes its argument: it returns a new TraceSet sharing the
// untouched traces. The same branch may be refined again, adding the same
// definition once more (the seed's Airline needs one seller's increment per
// refinement). A Refiner owns its own slice.Program (which is not safe for
// concurrent use), built on the first refinement, and memoizes the
// abstract system of each definition; its methods are safe for concurrent
// use. Refine is deterministic for a given generator state.
package refine
