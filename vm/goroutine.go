package vm

import (
	"unsafe"

	"github.com/gmc-go/gmc/vm/loc"
)

// gstatus is a goroutine's scheduling status, as in the Go runtime.
type gstatus uint8

const (
	// gRunnable: the goroutine can run its pending operation.
	gRunnable gstatus = iota
	// gBlocked: the goroutine waits; it becomes enabled when its wait guard
	// holds (see waitInfo) — for example the mutex it wants is unlocked, or
	// a partner completed its channel operation (wake is set).
	gBlocked
	// gDead: the goroutine returned (or was ended by Goexit).
	gDead
)

// waitKind selects the guard of a blocked goroutine.
type waitKind uint8

const (
	waitWake       waitKind = iota // enabled when another goroutine sets g.wake (chan, select, cond, timers)
	waitForever                    // never enabled (nil channel, empty select)
	waitCell0                      // enabled when the int32 cell at ptr is 0 (Mutex.Lock)
	waitCellLE0                    // enabled when the int32 cell at ptr is <= 0 (RWMutex.RLock: no writer)
	waitWG                         // enabled when the WaitGroup at ptr woke it (its counter reached 0)
	waitRWLock                     // enabled when the writer cell and the reader count are both 0
	waitBubbleRun                  // synctest.Run: enabled when its bubble ended or deadlocked (synctest.go)
	waitBubbleWait                 // synctest.Wait: enabled when the rest of its bubble is durably blocked
	waitSubtest                    // t.Run: enabled when the subtest at ptr ended or called t.Parallel (testing_parallel.go)
	waitBarrier                    // t.Parallel: enabled when the function of the test at ptr returned
	waitSubtests                   // a test's runner: enabled when the parallel subtests of the test at ptr ended
	waitCoro                       // parked in the coroutine at ptr: enabled when a switch woke it (natives_iter.go)
)

// waitInfo says why a goroutine is blocked, in the runtime's words.
type waitInfo struct {
	kind   waitKind
	reason string // e.g. "chan send", "sync.Mutex.Lock"
	ptr    Pointer
	ptr2   Pointer
}

// wakeInfo is the completion of a blocking operation deposited by the
// goroutine that completed it; the blocked goroutine consumes it when it
// re-executes the operation.
type wakeInfo struct {
	cas    int   // select case index that fired (-1 for a plain op)
	val    Value // received value
	ok     bool  // receive ok (false: channel closed)
	closed bool  // a send was woken by close
}

// goroutine is a VM thread. Goroutines are copied on write: a goroutine whose
// epoch differs from the running state's is shared with older states.
type goroutine struct {
	epoch  uint64
	id     int
	status gstatus
	goexit bool // runtime.Goexit in progress
	entry  bool // the goroutine running the entry function
	// atSelect: the next instruction is a select (set at the end of each
	// of the goroutine's transitions; only its own transitions move its
	// frames), so that listing choices need not visit the frames of
	// thousands of goroutines.
	atSelect bool
	// work counts the instructions the goroutine executed since it last
	// blocked or was last probed for spinning, up to spinInstrs. It is not
	// hashed: states that differ only in how long a goroutine has run
	// merge.
	work  int32
	wait  waitInfo
	wake  *wakeInfo
	top   *frame
	panic *panicState
	// origin is where it was started (immutable, shared by its copies:
	// a goroutine is copied at each of its transitions)
	origin *gOrigin
	vc     vclock // race detector clock
	nstate int    // progress of a native that blocks in several phases (Cond.Wait)
	// spin is what probes of the goroutine's transitions showed (see
	// time.go): nil until the first probe, reset when it blocks; never
	// modified in place (it is replaced), so goroutine copies share it.
	spin *spinInfo
	// sum caches what the state hash needs of the goroutine alone (a
	// *gsum, see hash_cache.go; nil: not computed). It is stored only
	// once the goroutine is frozen (its epoch is older than the state
	// hashing it), so it is never stale: a frozen goroutine is copied
	// before it is written (State.mutG), and the copy starts without one.
	// Accessed atomically: frozen goroutines are shared between searches.
	sum unsafe.Pointer
	// bubble is the synctest bubble the goroutine belongs to: the id of
	// the goroutine blocked in its synctest.Run (0: none); wallBase is
	// then the wall time, in Unix nanoseconds, of virtual time 0 as the
	// bubble sees it (its clock starts at 2000-01-01 UTC). Goroutines
	// and timer functions inherit both from the goroutine that started
	// or set them (synctest.go).
	bubble   int
	wallBase int64
	// bubbleVC is, for a goroutine blocked in synctest.Run, the race
	// clocks of its bubble's goroutines that exited, joined (Run and Wait
	// acquire it, as Go's runtime does).
	bubbleVC vclock
	// locks is what the lock monitor knows of the goroutine (lockmon.go):
	// nil unless the state has a LockObserver; immutable, replaced on
	// change, not hashed (it observes the run, it is not its state).
	locks *gLocks
}

// gOrigin is where a goroutine came from.
type gOrigin struct {
	start  string // the runtime's name of the start function (for leak reports)
	parent int    // id of the goroutine that executed the go statement
	// createdAt is that go statement (Fn nil for goroutines the VM
	// starts): runtime.Stack's "created by" line. Not hashed, as
	// goroutine ids are not (hash.go).
	createdAt loc.Loc
}

// start returns the runtime's name of g's start function.
func (g *goroutine) start() string {
	if g.origin == nil {
		return ""
	}
	return g.origin.start
}

// setStart names g's start function (a copy of its origin: origins are
// shared).
func (g *goroutine) setStart(name string) {
	o := gOrigin{start: name}
	if g.origin != nil {
		o = *g.origin
		o.start = name
	}
	g.origin = &o
}

// frame is one activation. Frames form a linked list through caller; only
// the top frame of the running goroutine is ever written, and it is copied
// first if it belongs to an older epoch.
type frame struct {
	epoch  uint64
	fn     *function
	caller *frame
	block  *block
	regs   []Value
	defers *deferred
	// (the small fields are packed: a frame is copied at every
	// transition, 144 bytes with them spread, 128 packed)
	pc      int32 // index in block of the next instruction
	result  int32 // register of the caller receiving the results (-1: none)
	depth   int32 // frames below it pushed by pushFrame (maxStackDepth)
	isDefer bool
	// boundary: a syncCall marker: unwinding stops here
	boundary bool
	// runner: a test runner (testing.go): a Goexit's unwinding stops here
	runner bool
	// unwinding: this frame is running its deferred calls because of a
	// panic or Goexit.
	unwinding bool
	// native continuation frames (fn == nil): cont runs when the callee returns.
	cont     func(t *thread, res Value) ctl
	contArgs []Value
	rets     Value // return values saved while defers run
}

// deferred is a pending deferred call (immutable linked list).
type deferred struct {
	fn   Value // *Closure
	args []Value
	next *deferred
	call *callSite
}

// panicState is an active panic.
type panicState struct {
	val       Value
	recovered bool
	link      *panicState
	pos       loc.Loc
	goexit    bool
	// stack is the frame that panicked, with its callers: the frames
	// that deferred calls of the panic run above in Go (runtime.Callers,
	// runtime.Stack); frames of past epochs are immutable.
	stack *frame
}

func (f *frame) clone(epoch uint64) *frame {
	c := newFrame(len(f.regs))
	regs := c.regs
	*c = *f
	c.epoch = epoch
	copy(regs, f.regs)
	c.regs = regs
	return c
}

// Frames with their registers: a frame of up to 32 registers is allocated
// with them, in one object (a frame is copied or pushed at nearly every
// transition; two allocations were 2.5 of the 15 a state of a DFS).
type (
	frameRegs4 struct {
		f frame
		r [4]Value
	}
	frameRegs8 struct {
		f frame
		r [8]Value
	}
	frameRegs16 struct {
		f frame
		r [16]Value
	}
	frameRegs32 struct {
		f frame
		r [32]Value
	}
)

// newFrame returns a zero frame with n zero registers (nil for none).
func newFrame(n int) *frame {
	switch {
	case n == 0:
		return &frame{}
	case n <= 4:
		x := &frameRegs4{}
		x.f.regs = x.r[:n:n]
		return &x.f
	case n <= 8:
		x := &frameRegs8{}
		x.f.regs = x.r[:n:n]
		return &x.f
	case n <= 16:
		x := &frameRegs16{}
		x.f.regs = x.r[:n:n]
		return &x.f
	case n <= 32:
		x := &frameRegs32{}
		x.f.regs = x.r[:n:n]
		return &x.f
	}
	return &frame{regs: make([]Value, n)}
}

func (g *goroutine) clone(epoch uint64) *goroutine {
	c := *g
	c.epoch = epoch
	c.sum = nil
	return &c
}

// loc returns the location of the goroutine's next instruction.
func (g *goroutine) loc() loc.Loc {
	for f := g.top; f != nil; f = f.caller {
		if f.fn != nil && f.block != nil {
			return loc.Loc{Fn: f.fn.ssa, Block: f.block.index, Index: f.block.first + int(f.pc)}
		}
	}
	return loc.Loc{}
}
