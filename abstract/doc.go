// Package abstract builds the abstract system and abstract traces of the
// main seed (Ch. 2 §2.4): the locations that decide whether target locations
// are reachable, and the sequences of them that a guided search follows.
//
// # Model
//
// Locations are loc.Loc (one SSA instruction). Given target locations L_t
// and the program's entry functions, Build computes L_α as the fixpoint of:
//
//   - L_s: the start of every entry and of every function started by a go
//     statement reachable from them (Start);
//   - Eq. 2.1: the call sites (CallSite, GoSite) on call chains from the
//     entries to each target and to each definition, and the entries of the
//     procedures they invoke (Entry); the call graph is VTA (package slice);
//   - Eq. 2.2: the branches every abstract location is control dependent on,
//     with the successor leading to it (Branch, Node.Succs);
//   - Eq. 2.3: the stores that may define memory read by a branch predicate
//     and reach it in a sequential execution (Def; may-alias of package
//     slice, definitions made by other goroutines excluded: refinement adds
//     them);
//   - Eq. 2.4: the lock acquisitions in the function of an abstract location
//     from which it is reachable (Acquire), and their releases (Release).
//
// E_α (Eq. 2.5) projects the interprocedural CFG onto L_α: a to b when
// control goes from a to b with no other abstract location in between (then
// no location of L_α post-dominates a and is post-dominated by b on that
// path). Calls into functions without abstract locations are stepped over.
// Instead of adding a branch's immediate successor as a location (Eq. 2.2's
// last clause), edges and trace steps leaving a branch record the successor
// index (Edge.Succ, Step.Succ).
//
// An abstract trace (Eq. 2.6–2.7) is a path of E_α from a start location to
// a target without repeated locations, respecting call/return nesting; a
// trace set holds one trace per target, index for index with
// System.Targets, so a warning whose error needs several locations reached by
// distinct goroutines at once (the inner acquisitions of an AB-BA cycle)
// is one trace set. Traces and sets come fewest calls first, as the seed
// picks its initial sets (§2.8).
//
// Targets come from ParseTarget (file.go:LINE, the first instruction on the
// line), CommentTargets (//gmc:target), PanicSites, and the analyzers of
// package abstract/warn.
//
// # Invariants
//
// Every location of a trace is in System.Nodes; every Step.Succ ≥ 0 is on a
// Branch step; every list is in a deterministic order (package slice's Less
// for locations), so the same program and targets give the same system,
// traces and output. A System is read-only once built.
package abstract
