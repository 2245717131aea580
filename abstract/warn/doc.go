// Package warn holds gmc's warning generators: static checks, written as
// golang.org/x/tools/go/analysis analyzers, whose warnings become targets of
// the guided search.
//
// # Model
//
// Each check is an SSA-based core over a Model — a set of functions and a
// call-site resolver — wrapped in one Analyzer (Doc, Requires buildssa,
// Run), so the same check runs in go vet -vettool, gopls, multichecker
// drivers (see cmd/gmcvet) and analysistest. In a pass the model is the
// package's functions with static callees; gmc runs the same cores on an
// already loaded program (Run) with the whole-program VTA call graph.
//
// The checks, all imprecise by design (the model checker decides):
//   - lockorder: AB-BA lock-order cycles (targets: the two inner
//     acquisitions, to be reached by distinct goroutines at once);
//   - doublelock: a mutex locked while it may be held by the same goroutine
//     (target: the second acquisition);
//   - missingunlock: a return reached with a mutex held, in a function that
//     unlocks it on other paths (target: the return);
//   - chanblock: channel operations with no partner certain to happen
//     (target: the blocking operation);
//   - lockset: Eraser-style inconsistent locking of a global or field by
//     two goroutines (targets: the two accesses).
//
// Mutexes are named two ways: lockIdent is a must-identity (the same
// variable, parameter or value through the same field path) used for
// double locks; abstract.LockKey is the may-alias name (same global, same
// field of the same type) used for lock order and locksets.
//
// # Invariants
//
// Every Warning has at least one target, and its Pos is a position inside
// the checked package. Checks are deterministic: same input, same warnings
// in the same order.
package warn
