// Package slice computes program dependence over gmc's SSA: per-function
// control-flow graphs, post-dominators, control dependence, data dependence
// (SSA def-use and memory), interprocedural edges through the call graph, and
// backward slices from a location.
//
// # Model
//
// A location is one SSA instruction (loc.Loc). The CFG of a function is its
// SSA block graph; instructions of a block run in order. The post-dominator
// tree is computed over the blocks plus a virtual exit that every returning or
// panicking block, and every block that cannot reach one (an infinite loop),
// flows to. Control dependence is Ferrante–Ottenstein–Warren's: block B is
// control dependent on the branch ending block A, taking successor i, when B
// post-dominates A's i-th successor but not A.
//
// Data dependence of an instruction is:
//   - def-use: the instructions defining its SSA operands;
//   - parameters: the call sites of the function (go statements included);
//   - free variables: the MakeClosure instructions binding them;
//   - call results: the Return instructions of the callees;
//   - memory: the stores that may define what a load reads.
//
// Memory is abstracted into classes with the conservative "maybe an alias"
// of the main seed: the same global; the same field of the same struct type;
// the same element type of any slice, array or map; and a dereference of a
// pointer to T may alias any class whose values have type T. A store only
// reaches a load sequentially: in the same function along a CFG path, or in a
// function that runs synchronously (through calls, not go statements) under
// some function that can reach the load's function through calls or go
// statements, or in a package initializer. A goroutine's own writes thus never
// flow back to its spawner: inter-goroutine dependence is the refinement's
// business (main seed Fig. 2.6), available through MayDefine.
//
// The call graph is VTA (golang.org/x/tools/go/callgraph/vta) seeded by CHA;
// go and defer statements are call edges. Functions without blocks (external
// or standard-library functions whose bodies load strips) have no dependence
// of their own, and neither have the standard library's functions that run
// from their source (Library): a call to one is a single location whose
// effects happen at the call site; its body adds no call chain, goroutine
// start, store or returned value, and a callback handed to it is called at
// that site. The package of a target is opened (Open) and sliced as code.
//
// # Invariants
//
// A Program is built once from an ssa.Program and is read-only afterwards
// except for memoized per-function results; it is not safe for concurrent
// use. Every list it returns is sorted deterministically (by function name,
// block and instruction index), so slices and everything built on them are
// the same from run to run.
package slice
