// Package smt is a thin cgo binding over the Z3 C API (libz3, linked
// with -lz3) that models Go's bool and fixed-width integer semantics on
// Z3 booleans and bit-vectors.
//
// # What it models
//
// A term (Expr) has a Go Type: Bool, or one of int8..int64 and
// uint8..uint64, represented as a bit-vector of that width. The type's
// signedness picks the Z3 operation that matches the Go operator:
//
//   - + - * and unary - wrap around modulo 2^width (bvadd, bvsub, bvmul,
//     bvneg).
//   - / and % are truncated division and remainder (bvsdiv/bvsrem for
//     signed, bvudiv/bvurem for unsigned); MinInt / -1 wraps to MinInt
//     and MinInt % -1 is 0, as in Go. Division by zero panics in Go; the
//     term then has Z3's fixed value, so callers must test the divisor.
//   - & | ^ &^ and unary ^ are bitwise.
//   - << and >> take a count of any integer type whose bits are read as
//     unsigned; a count >= width gives 0, or -1 for >> of a negative
//     signed value. This is written out with an ite on the count. (Go
//     panics on a negative signed count; callers must test for it.)
//   - == != < <= > >= compare signed or unsigned by the operand type.
//   - Convert follows Go conversions: sign- or zero-extension by the
//     source's signedness, truncation, or reinterpretation of the bits.
//   - Bool terms have and, or, xor, not, implies, ite and equality.
//
// Mixing types, or a Context's terms with another's, panics, as Go's
// type checker would reject the program.
//
// # Ownership and reference counts
//
// A Context wraps a context made with Z3_mk_context_rc, so every Z3
// object lives exactly as long as references are held on it. The
// invariants are:
//
//   - Each Expr, Solver and Model holds exactly one Z3 reference, taken
//     right after the Z3 call that returned the object (before any other
//     call, since Z3 keeps only its last result alive otherwise).
//   - Terms are released by the garbage collector: a runtime cleanup of
//     an unreachable Expr does not call Z3 (cleanups run on another
//     goroutine and a Z3 context is not thread-safe); it only queues the
//     reference on its Context. The goroutine using the Context drops the
//     queued references at the start of its next call. Within one call
//     nothing is dropped, so a term stays valid while it is being used.
//   - Solvers and Models may be released early with Close; otherwise
//     they are queued like terms. Terms asserted into a solver are kept
//     alive by Z3 itself for as long as the solver needs them.
//   - Context.Close drops every solver and model still held and deletes
//     the Z3 context, which frees all terms. Nothing made from a closed
//     Context may be used again (it panics with ErrClosed); cleanups that
//     fire later are ignored. A Context must be closed explicitly: one
//     that is dropped without Close leaks its Z3 memory.
//
// Long searches thus keep Z3 memory in step with the terms that are
// still reachable from Go, one garbage collection behind. Context.Stats
// reports the references still held.
//
// # Thread safety
//
// A Context and all its terms, solvers and models must be used by one
// goroutine at a time (Z3 contexts are not thread-safe); use one Context
// per goroutine for parallel solving. Separate Contexts may be used in
// parallel. The only exception is Context.Interrupt, which may be called
// from any goroutine to stop a running check, which then returns Unknown.
// Interrupt does nothing while no check runs: Z3's cancel flag would
// otherwise stay raised and break the next simplification or model query.
//
// # Timeouts
//
// Options.TimeoutMS sets a per-check time limit, in milliseconds, on
// every Solver of the Context; Solver.SetTimeout changes it for one
// solver. A check that runs out of time returns Unknown.
package smt
