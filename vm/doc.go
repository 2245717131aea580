// Package vm is gmc's virtual machine: an interpreter of Go programs in SSA
// form (golang.org/x/tools/go/ssa) in which gmc, not the Go runtime, decides
// which goroutine runs next and what value each input takes.
//
// # States and transitions
//
// A State is a snapshot of the whole program: the heap, the goroutines with
// their stacks, the virtual clock and timers, and the output written so far.
// A State never changes once returned (but when its holder hands it to
// Machine.StepInPlace, which makes it its own successor; see below).
// Machine.Step(s, i) applies the i-th
// of s.Choices() and returns a new State; s stays valid, so a search can
// keep many states and resume from any of them (no explicit save/restore).
//
// A transition runs one goroutine from one scheduling point to the next: it
// executes the goroutine's pending visible operation and then invisible
// operations until just before the next visible one (or until the goroutine
// blocks or ends). Visible operations (scheduling points) are channel
// operations and select, sync and sync/atomic operations, go statements,
// runtime.Gosched, time operations, and, with SchedShared, loads and stores
// of heap objects reachable from more than one goroutine in the module
// under test. Standard-library code runs atomically between its sync
// operations. A statement's operands are evaluated in gc's order, its calls
// first and the other operands after them (evalorder.go: `return b,
// rs.Scan(&b)` returns what Scan wrote); such a deferred operand is no
// scheduling point of its own.
//
// # Choices
//
// The only nondeterminism is the choice taken at each state: which enabled
// goroutine runs (ChooseGoroutine), which ready case a select takes
// (ChooseSelectCase), or which side of a branch on a symbolic value
// (ChooseBranch). Choices are listed in a deterministic order, so a run is
// fully determined by its entry, arguments and choice sequence
// (see package vm/trace for recording and replay).
//
// # Symbolic data
//
// With Options.Symbolic, the integer, bool, byte and rune parameters of a
// FuzzXxx entry's fuzz function are symbolic inputs (symbolic.go): integer
// operations on them build expressions lazily; a branch on a symbolic
// condition with both sides feasible under the path condition stops the
// goroutine before the branch and offers a ChooseBranch per side (so do a
// division by a symbolic divisor, a shift by a symbolic signed count and an
// index against its length, whose other side panics); operands that must
// be concrete are concretized. The path condition is part of the state and
// of its hash. The solver (package vm/smt, Z3) is used only at such points,
// through one context per chain of states from one Start. State.Inputs
// gives concrete inputs for a state; Options.Inputs replays them without
// the solver. Runs without symbolic inputs carry no symbolic state at all.
//
// # Sharing between states (copy-on-write)
//
// Every State has a unique epoch. Heap objects, heap chunks, goroutines and
// frames carry the epoch in which they were created or copied; a write to
// one from an older epoch copies it first. Thawing a state for a step copies
// only the heap directory (one pointer per 256 objects) and the goroutine
// table, so a step costs time proportional to what it changes.
//
// A search that drops the state it steps from (a random walk's run, a
// chain of single successors) steps it in place instead
// (Machine.StepInPlace): the state keeps its epoch, so the transition
// writes the objects, goroutines, frames and pages the state already owns
// where they are, and the state itself is the successor. A hash caches
// what it computes from parts no step writes any more (of an older epoch,
// or of a state Step returned) and an object's content hash; once it has
// cached something of a state's own parts, the state is marked
// (State.ownCached) and never stepped in place.
//
// # Values and memory
//
// See Value for the representation of Go values. Memory is flattened: a
// heap object is a slice of cells, one per scalar leaf of its type, and a
// pointer is (object, cell offset). An array or a slice's backing array of
// 64 or more fixed-size numbers or booleans is packed instead (packed.go):
// its cells are raw bytes in 4 KB pages copied on write, read and written
// through the same accessors (cells.go), up to 1 GiB an object. Another
// object of 4,096 cells or more keeps its cells, and the race detector's
// shadow of them, in pages of 512 copied on write (cellpages.go): a step
// that writes one cell of a large table, or changes its race state (an
// atomic load), copies one page of it.
//
// # Blocking
//
// A goroutine blocks either on a guard (a mutex cell being 0: it becomes
// enabled when the guard holds and then re-executes the blocking
// operation) or on a wake-up deposited by a partner (channel operations,
// select, sync.Cond, timers, the Add that brings a WaitGroup's counter to
// 0), mirroring the runtime's sudogs. Wait reasons use the runtime's words ("chan send",
// "sync.Mutex.Lock", ...).
//
// # Time and leaks
//
// The clock is virtual (time.go), as testing/synctest runs it (Options.Timing
// "synctest", the default): pending timers fire, earliest first, only when
// every goroutine is blocked or every goroutine that can run spins — a probe
// of its transitions (after it polled: a select's default, Gosched, a
// preemption; or after long work without blocking) found the whole state
// repeating, and the current state is the one it returned to. A timer never
// fires before its duration has passed, and one select default does not make
// time pass. With Options.TimerChoice ("any") timers may also fire at any
// scheduling point (a ChooseTimer choice: timing-dependent failures only);
// with Options.StepTime ("step") every transition advances the clock and
// timers fire when due (real time: the clock is hashed, so states no longer
// merge). Timers follow Go 1.23: no stale
// value after Stop or Reset. After a test's entry returns the run goes on
// while a timer set before time passed is pending (what the test left
// behind fires, with the timers due before it); timers set once time has
// passed since the return, and a ticker's later periods, never fire
// (timer.late): a test binary exits soon after its tests, and a
// background loop on a ticker (a package's init refreshing a cached
// clock) would keep every run going forever. A T is done once its runner
// returns (the test, its subtests and cleanups ended): failing it then
// panics as go test does, "Fail in goroutine after TestX has completed"
// (testing_done.go). A blocked goroutine is leaked when nothing
// that can still run reaches the primitive it waits on, as in Go 1.26's
// goroutine leak profile (leak.go); leaks are checked when the entry
// returns, every 1,024 transitions and when nothing can run. With
// Options.EntryGrace a run ends that many transitions after the entry
// returns, as a process does, whatever still runs. State.RunNext names the
// goroutine Go's scheduler would run next (the last one started or woken),
// for walks that imitate it (vm/trace.Sticky).
//
// # Hangs
//
// The entry's goroutine blocked forever while the rest of the program
// only cycles (a state, without the clock, repeats at a point where time
// must pass, the entry not having moved) is a KindHang error, what go test
// reports as "test timed out" (hang.go); so is every goroutine blocked
// while only tickers fire.
//
// # Errors a run looks for
//
// Options.Unreachable locations are errors to reach (KindUnreachable: a
// //gmc:unreachable comment, a warning gmc confirm checks by reachability);
// Options.Quiet turns any other error that ends a Go program into a plain
// exit of the run (State.Exited), and Options.RaceAt keeps only the races
// with an access on given lines: the other races are not errors, as under
// go test -race they do not stop the program. Unsupported features and
// internal errors are always errors.
//
// # Race detection
//
// With Checks.Race every goroutine and synchronization address carries a
// vector clock and every memory cell a shadow of its last accesses
// (race.go, race_chan.go); the rules are the Go memory model's, listed in
// race.go with the test of testdata/race/memmodel that covers each, and
// Go's own race suite runs as benchmarks/racesuite. A data race is two
// accesses of one location (a field, an element, a map, a channel's
// close) by different goroutines, one a write, not both atomic, neither
// ordered before the other. An SSA access that compiled Go does not make
// is not one: the store of `return x` into the named result x itself
// (instrs_core.go, returnSelfStore), nor a closure's load of a variable
// gc captures by value (written only before it is shared: Object.readOnly,
// byvalue.go). Accesses that can never be one of a racing pair are not
// remembered: those of such variables, and the sends on a channel no
// close can reach (byvalue.go), whose only conflicting access is close.
//
// # Lock monitor
//
// A LockObserver attached to an initial state (State.SetLockObserver) is
// told every lock acquisition of every run from it, with the locks the
// acquiring goroutine then holds, its count of earlier acquisitions and
// the chain of goroutine starts that led to it (lockmon.go): Mutex,
// RWMutex (read and write), and capacity-1 channels used as locks. What a
// goroutine holds is kept beside it, copied on write like the rest of the
// goroutine and never hashed: it observes the run, it is not its state.
// guide's lock-graph monitor builds its predictions from these.
//
// # Event log
//
// A RunObserver attached to an initial state (State.SetRunObserver) gets
// the event log of every run from it when the run ends, and of a long run
// at checkpoints (predlog.go): the accesses the race detector checks and
// the points where it joins clocks, with lock operations logged as such
// (EvLock, EvUnlock) instead of as their semaphores' release and acquire.
// The log is a chain of per-transition chunks shared between a state and
// its descendants, never hashed. guide's predictive race monitor reorders
// runs from it.
//
// # Tests
//
// A TestXxx or FuzzXxx entry runs as testing.tRunner runs it (testing.go):
// the test function, then t.Context's cancellation and the t.Cleanup
// functions, last first, also after t.FailNow or t.SkipNow; t.Run runs a
// subtest the same way on a goroutine of its own and waits for it, and a
// subtest that calls t.Parallel runs once its parent's function returned,
// concurrently with its parallel siblings (testing_parallel.go); Machine.Solo
// tells whether a released one can run alone to its end first, every
// interleaving being equivalent to that (solo.go). fmt's and context's
// initializers run before the test's package, as testing's imports. Without
// a TestMain the program sees goroutines as go test shows them: goroutine 1
// is go test's main goroutine, waiting in testing.(*T).Run (runtime.Stack
// with all set prints it, runtime.NumGoroutine counts it), the VM's
// goroutine N has id N+1, and a test's stack ends in testing.tRunner,
// "created by testing.(*T).Run" (State.goID). An example runs on go
// test's main goroutine: its stack ends in testing.runExample,
// testing.runExamples, testing.(*M).Run and the test main's main.main
// (State.entryFrames). testing.Short reports true, as under go test
// -short, unless the program's arguments hold -test.short=false (entry.go,
// testShort). t.SkipNow (t.Skip, t.Skipf, f.Skip) marks its T skipped;
// an execution whose entry's own T skipped without failing is skipped
// (State.Skipped: go test's SKIP; a subtest's or a fuzz input's skip is
// not its test's), and Options.Ends tallies the executions that ended
// and those that skipped (testing_skip.go). The T a fuzz function gets
// is one the VM runs, so its t.Error fails the fuzz target.
// testing/synctest runs from its source over bubbles (synctest.go): the
// goroutines started inside share a clock that starts at 2000-01-01 UTC
// and passes only when they are durably blocked, synctest.Wait, and Go's
// deadlock panics.
//
// # Sanity
//
// Options.Sanity (or GMC_VM_SANITY=1) checks after every transition the
// invariants the race detector and the scheduler rely on (sanity.go).
//
// # Hashing
//
// State.Hash is canonical: objects are numbered in reachability order from
// the globals and the goroutines, so states that differ only by
// allocation order hash equally; and goroutines are named by their place
// in a canonical order (by what each one alone is, twins by their place
// in channel queues and timers), not by id, so states that differ only by
// which of two identical workers went first hash equally too (State.GoRank
// gives a goroutine's place; once the program has read runtime.Stack's
// text, which shows ids, goroutines are named by id). It covers the
// program's state (contentHash) with only the registers some instruction
// may still read (liveness.go), the race detector's summary
// (race_hash.go: per cell the reads no other read dominates, without the
// accesses that the only goroutine reaching an object covers,
// race_owner.go), and the goroutines that spin in that very state (time
// passes in it), not the history of their probes.
//
// The canonical order only suggests which goroutines are twins (the same
// summary key; it breaks ties by id, so it is not a proof that two
// goroutines are interchangeable). State.Twins proves it (twins.go): a
// permutation of goroutines is an automorphism of the state when the
// state's walk with the goroutines so renamed hashes as the state does;
// one walk with a run of candidates rotated proves that any of them can
// be mapped onto any other with the rest of the goroutines fixed. The
// searches use it to run one of each class of twins (guide/symmetric.go).
//
// # Natives
//
// The standard library is loaded with the pure-Go build tags (purego,
// math_big_pure_go, and noasm for modules such as klauspost/compress) and
// interpreted from its source, fmt, errors, log,
// math/rand, regexp, encoding/json, time and the crypto hashes included;
// only the packages of load's short stripped list (each with its reason:
// runtime, sync, sync/atomic, reflect, internal/reflectlite, unique, weak,
// testing, internal/bytealg, internal/godebug, syscall and the OS
// boundary: os/exec, os/signal, net, net/http, crypto/rand) lose their
// bodies and are modelled by natives registered by name (ssa
// Function.String(), e.g. "(*sync.Mutex).Lock") in natives_*.go, and
// generic ones per instance (genericNatives: abi.TypeFor[T],
// reflect.TypeAssert[T]). A native of an interpreted package wins over its
// body: the strings, bytes, unicode and math adapters stay because they
// pay (natives_std.go gives the measured figures). time needs natives only
// for the clock (time.Now, whose successive readings strictly increase),
// the timers and the local zone (UTC); math/rand's source is the runtime's
// deterministic runtime_rand; the crypto packages need natives only at the
// crypto/internal/fips140 boundary (FIPS 140-3 mode off). The testing
// natives (t.Errorf, t.Log, ...) format with the interpreted fmt.Sprintf
// and fmt.Sprintln; the standard library's own sync.Pools drop what is put
// (Go may drop pooled values at any time), so printer buffers are not
// state. A few pure functions of stripped packages keep their bodies
// (load.keepBodies: reflect.StructTag.Get, ...). A stripped
// package's initializer is a no-op unless a native "PKG.init" models it
// (natives_cryptorand.go: a deterministic crypto/rand.Reader). Package os
// (with internal/poll and io/ioutil) runs from its source over natives of
// package syscall and internal/syscall/unix (natives_syscall.go,
// natives_poll.go): files are read from the real file system and what the
// program writes is kept in the state over it (files.go,
// files_overlay.go), so that runs resumed from snapshots see only their
// own writes; the environment, os.Executable, os.Getwd, os.Hostname, os/user.Current, the process's ids and
// statfs of a path (natives_statfs.go) are read once per machine and
// recorded in traces (osinputs.go). Calling a
// function with neither a body nor a model stops the run with an
// "unsupported: ... at file:line" error, never a panic of gmc itself; in
// os, io/ioutil, os/exec, syscall, net and crypto/rand the error names the
// OS boundary (processes, pipes, sockets, signals; crypto/rand's Reader
// and Read are modelled: deterministic bytes from a counter in the state,
// natives_cryptorand.go; a test that re-executes its own test binary
// through os/exec runs the child as a machine of its own, exec_self.go).
// Package reflect is modelled over the VM's own types and
// values: DeepEqual (deepequal.go), TypeOf and the Type methods
// (natives_reflect_type.go, natives_reflect_field.go), Value with Go's flag
// word (natives_reflect_value.go, natives_reflect_map.go), Call, CallSlice
// and MakeFunc over VM closures (natives_reflect_call.go); unsafe.Pointer ↔
// uintptr conversions use gc byte offsets (unsafeptr.go), so go-spew's
// bypass of the read-only flag works; an interface's words read through
// unsafe are a type's descriptor address (one per type, the address
// Value.Pointer gives for a reflect.Type) and the value's pointer or box,
// and storing them back over an interface or a reflect.Value remakes the
// value they came from (unsafeiface.go, unsafevalue.go); numbers read
// through unsafe.Pointer as numbers of another width, and the fields of a
// struct laid over a buffer of numbers (freecache's entry headers in its
// byte ring), reach the bytes of the gc layout (unsafeview.go,
// unsafeview_struct.go). The runtime's stack introspection
// (runtime.Callers, CallersFrames, FuncForPC, Stack, debug.Stack) uses
// synthetic PCs naming SSA instructions (natives_runtime.go).
package vm
