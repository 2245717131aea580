package vm

import (
	"sort"
	"sync/atomic"

	"github.com/gmc-go/gmc/vm/loc"
)

var epochs atomic.Uint64

// State is a snapshot of the whole program: heap, goroutines, clock, output.
// A State returned by Start or Step is never modified again; Step builds a
// new State sharing unchanged objects, goroutines and frames with it.
type State struct {
	m     *Machine
	epoch uint64
	heap  heap
	gs    gList // live goroutines, by id
	nextG int
	out   *outChunk
	err   *Error

	clock int64       // virtual time, ns
	env   *envOverlay // the run's changes to its environment (osinputs.go)
	files []*vfile    // the open descriptors from firstFD (files.go); copied on change
	fs    *vfs        // the files the run wrote (files_overlay.go)
	draws uint64      // numbers drawn by os.runtime_rand and t.TempDir in this run (not hashed: names only)
	// nowReads is 1 + the clock time.Now last returned (0: none yet);
	// hashed as whether it equals clock+1 (see readNow)
	nowReads int64
	timers   []timer

	entryDepth int     // depth at which the entry returned
	runnext    int     // see RunNext (not hashed: a scheduling hint)
	gorder     []int32 // the goroutines' ids in canonical order (set by Hash; DropRanks drops it)
	depth      int     // transitions from the initial state
	instrs     int64   // instructions executed from the initial state
	last       Step

	race *raceState
	// lockObs is told every lock acquisition of the runs from this state
	// (lockmon.go; nil: none). States descending from it share it.
	lockObs LockObserver
	// runObs receives the event log of every run from this state when it
	// ends (predlog.go; nil: none); evlog is the log so far (evOwn below).
	runObs RunObserver
	evlog  *eventChunk
	data   *dataState
	test   *testState

	fp []Access // objects the last transition's visible operations touched

	idle *idleMark // see hang.go
	// forcedGCAt is the wall time (ns) of the last runtime.GC
	forcedGCAt int64

	choices []Choice // computed on demand
	hash    uint64
	// chash caches contentHash (valid while chashed; the state is being
	// built until Step returns, so anything that changes it during
	// finishStep clears chashed).
	chash uint64
	// probe is the goroutine whose transition is to be probed for
	// spinning by finishStep (0: none), probeLong whether it had worked
	// spinInstrs instructions without blocking (see time.go).
	probe int32
	// stepNowReads counts the clock readings of the transition being
	// made (readNow); probeClock says the probed goroutine polled the
	// clock (see time.go).
	stepNowReads int32

	// The flags (and lastGC, numGC, hashWork, bubbles) are packed here: a State is allocated
	// at every transition (584 bytes with them spread, 512 packed: a
	// smaller size class, and the last one without a malloc header).
	lastGC ObjID // heap.next at the last collection
	// numGC counts the collections the program forced (runtime.GC), which
	// runtime.ReadMemStats and runtime/debug.ReadGCStats report
	// (natives_runtime_stats.go); the VM itself never collects in a way
	// the program can see.
	numGC uint32
	// hashWork is the size of the hash computation (HashWork; saturated)
	hashWork int32
	// bubbles counts the synctest.Run calls in progress (synctest.go):
	// while one is, time passes as in a bubble whatever the time model.
	bubbles int32
	// gsShared: gs.chunks is the parent state's (thaw shares it); it is
	// copied before it is written (gList.own)
	gsShared  bool
	exited    bool // the program ended without error
	entryDone bool
	// afterFired: a timer fired after the entry of a test returned (the
	// timers set from then on are late: timer.late)
	afterFired bool
	// idsSeen: the program has seen goroutine ids (the text of
	// runtime.Stack); the hash then names goroutines by id, not by rank
	// (hash.go).
	idsSeen bool
	entry   EntryKind // the kind of the entry the run started in
	// evOwn: the last chunk of evlog is this state's own (made by its
	// transition)
	evOwn bool
	// died is set when a goroutine exited in the current transition
	// (prune drops it)
	died bool
	// sealed: Step returned the state; nothing writes its goroutines or
	// objects any more (the hash caches what it computes from them)
	sealed     bool
	hashed     bool
	chashed    bool // see chash
	probeLong  bool // see probe
	probeClock bool // see stepNowReads
	// ownCached: a hash cached what it computed from the state's own
	// objects, goroutines or pages (State.frozen once the state is
	// sealed; an object's content hash, hasher.cells): the state can no
	// longer be stepped in place (StepInPlace)
	ownCached bool
}

// ChoiceKind says what a choice decides.
type ChoiceKind uint8

const (
	// ChooseGoroutine: run goroutine G's next transition.
	ChooseGoroutine ChoiceKind = iota
	// ChooseSelectCase: run goroutine G, whose next operation is a select
	// with several ready cases, taking case Case.
	ChooseSelectCase
	// ChooseBranch: goroutine G is at a branch on a symbolic condition with
	// both sides feasible; take side Branch (1 true, 0 false).
	ChooseBranch
	// ChooseTimer: advance the clock to the earliest pending timer and
	// fire the timers due then (only with Options.TimerChoice or
	// TimerChoiceDepth; G is 0).
	ChooseTimer
)

// Choice is one enabled successor of a state.
type Choice struct {
	Kind   ChoiceKind
	G      int
	Case   int
	Branch int
	Loc    loc.Loc // the goroutine's next instruction
}

// Step records what the transition that produced a state did.
type Step struct {
	G   int
	Loc loc.Loc // where the transition's visible operation is (else where it started)
	Op  string  // the visible operation it executed ("chan send", "sync.Mutex.Lock", "go", ...)
	// Sync lists the synchronizations it performed, in order (recorded
	// only with Options.RecordSync; see syncevents.go).
	Sync []SyncEvent
}

func (s *State) thaw() *State {
	ns := &State{}
	*ns = *s
	ns.epoch = epochs.Add(1)
	ns.heap = s.heap.clone()
	ns.gs, ns.gsShared = s.gs, true // copied on the first write (gList.own)
	ns.choices = nil
	ns.fp = nil
	ns.hashed, ns.chashed, ns.sealed, ns.ownCached = false, false, false, false
	// ns.gorder stays the parent's until Hash sets it (nothing reads it
	// before: GoRank hashes first), so that setRanks can keep it when the
	// order is the same
	ns.probe, ns.probeLong, ns.probeClock, ns.stepNowReads = 0, false, false, 0
	ns.evOwn = false
	if s.race != nil {
		ns.race = s.race.clone()
	}
	return ns
}

// GoRank returns the position of goroutine id in the canonical order of
// the live goroutines by which the hash names them (see hash.go), or -1
// when it is not live (the id itself once the program has seen ids). Two
// states with the same hash have the same goroutines up to a renaming, so
// a search that records goroutines with its visited states records their
// positions.
func (s *State) GoRank(id int) int {
	if s.idsSeen {
		return id
	}
	s.Hash()
	if s.gorder == nil && s.gs.len() > 0 { // dropped (DropRanks): walk again
		h := s.walk(s.m.hashRoots)
		s.setRanks(h.order, h.sums)
		h.release()
	}
	for i, x := range s.gorder {
		if int(x) == id || int(-x) == id {
			return i
		}
	}
	return -1
}

// setRanks records the canonical order of the goroutines (GoRank), with
// the runs of goroutines with the same summary key (sums: theirs, in that
// order) marked (gorder). The slice is never written once set: a state
// keeps its parent's when the record is the same (most transitions change
// no rank: one allocation a state saved).
func (s *State) setRanks(order []*goroutine, sums []*gsum) {
	mark := func(i int) int32 {
		if i > 0 && !s.idsSeen && sums[i].key == sums[i-1].key {
			return int32(-order[i].id)
		}
		return int32(order[i].id)
	}
	if len(s.gorder) == len(order) {
		same := true
		for i := range order {
			if s.gorder[i] != mark(i) {
				same = false
				break
			}
		}
		if same {
			return
		}
	}
	gorder := make([]int32, len(order))
	for i := range order {
		gorder[i] = mark(i)
	}
	s.gorder = gorder
}

// DropRanks drops the state's record of the canonical order of its
// goroutines, which GoRank walks the state again to rebuild: a
// depth-first search drops it on the states of its path while it
// explores below them, as it drops their choices (a word per goroutine:
// thousands of goroutines times the path's branching states). A record
// of at most keep goroutines stays.
func (s *State) DropRanks(keep int) {
	if len(s.gorder) > keep {
		s.gorder = nil
	}
}

// mutG returns goroutine id for writing.
func (s *State) mutG(id int) *goroutine {
	ci, i := s.gs.find(id)
	if ci < 0 {
		return nil
	}
	g := s.gs.chunks[ci].gs[i]
	if g.epoch != s.epoch {
		g = g.clone(s.epoch)
		s.gs.set(ci, i, g, s.epoch, &s.gsShared)
	}
	return g
}

func (s *State) getG(id int) *goroutine {
	return s.gs.get(id)
}

func (s *State) fail(e *Error) {
	if s.err == nil && !s.exited {
		if q := s.m.opts.Quiet; q != nil && e.Kind != KindUnsupported && e.Kind != KindInternal && e.Kind != KindRace && q(e) {
			// Options.Quiet: the program just ends
			s.exited = true
			return
		}
		s.err = e
	}
}

// Err returns the error this state is in, or nil.
func (s *State) Err() *Error { return s.err }

// Exited reports whether the program ended without error.
func (s *State) Exited() bool { return s.exited }

// Terminal reports whether the state has no successors.
func (s *State) Terminal() bool { return len(s.Choices()) == 0 }

// Instructions returns the number of SSA instructions executed from the initial state.
func (s *State) Instructions() int64 { return s.instrs }

// Depth returns the number of transitions from the initial state.
func (s *State) Depth() int { return s.depth }

// LastStep describes the transition that produced s.
func (s *State) LastStep() Step { return s.last }

// Clock returns the virtual time in nanoseconds.
func (s *State) Clock() int64 { return s.clock }

// TimersPending reports whether a timer is set. Under the default time
// model a spinning goroutine lets the earliest timer fire once a probe
// finds it repeating, which the state's hash does not record: a search
// that merges such states by hash may miss the firing.
func (s *State) TimersPending() bool { return len(s.timers) > 0 }

// RunNext returns the goroutine most recently made ready (started by a go
// statement or an AfterFunc, woken by a channel operation, a Cond or a
// timer) that has not run since, or 0: Go's scheduler puts such a
// goroutine in its P's runnext slot, to run as soon as the current one
// blocks or yields. A hint for schedulers that imitate Go's.
func (s *State) RunNext() int { return s.runnext }

// enabled reports whether goroutine g can run a transition.
func (s *State) enabled(g *goroutine) bool {
	switch g.status {
	case gRunnable:
		return true
	case gBlocked:
		return s.guard(g)
	}
	return false
}

// guard evaluates a blocked goroutine's wait condition.
func (s *State) guard(g *goroutine) bool {
	w := &g.wait
	switch w.kind {
	case waitWake:
		return g.wake != nil
	case waitCell0:
		return s.cellInt(w.ptr) == 0
	case waitCellLE0:
		return s.cellInt(w.ptr) <= 0
	case waitWG:
		return g.wake != nil // woken by the Add that brought the counter to 0
	case waitCoro:
		return g.wake != nil // woken by a switch
	case waitRWLock:
		return s.cellInt(w.ptr) == 0 && s.cellInt(w.ptr2) == 0
	case waitBubbleRun:
		return s.bubbleRunReady(g)
	case waitBubbleWait:
		return s.bubbleIdle(g)
	case waitSubtest:
		return s.subtestGuard(w.ptr)
	case waitBarrier:
		return s.testBoolOf(w.ptr, "finished")
	case waitSubtests:
		return s.subtestsDone(w.ptr)
	}
	return false
}

func (s *State) cellInt(p Pointer) int64 {
	o := s.heap.get(p.Obj)
	if o == nil || int(p.Off) >= o.numCells() {
		return 0
	}
	return toInt64(o.cell(int(p.Off)))
}

// Step applies choice i of s and returns the successor state. s is unchanged.
func (m *Machine) Step(s *State, i int) *State {
	return m.step(s, s.choice(i), 0)
}

// StepWithin is Step with a deadline (wall-clock Unix nanoseconds; 0:
// none): a transition still running when the deadline passes ends there,
// between two of its goroutine's instructions (not inside a native's call
// of program code), and the state says so (Cut). A cut is a preemption
// the schedule did not choose, which a replay would not make: a search
// reports nothing from a cut state and stops there (its time is over). A
// transition runs up to 2^21 instructions, seconds of a loaded machine,
// and a search's time limit is kept within 5 %.
func (m *Machine) StepWithin(s *State, i int, deadline int64) *State {
	return m.step(s, s.choice(i), deadline)
}

// StepAmongWithin is StepAmong with a deadline (StepWithin).
func (m *Machine) StepAmongWithin(s *State, i int, gids []int32, deadline int64) *State {
	return m.step(s, s.choiceAmong(i, gids), deadline)
}

// Cut reports whether the transition that made s was cut at the deadline
// of StepWithin (its step's Op is opCut: a State has no byte to spare,
// TestStateSize).
func (s *State) Cut() bool { return s.last.Op == opCut }

// opCut is the Op of a transition cut at a deadline (StepWithin).
const opCut = "cut at the time limit"

// StepAmong is Step(s, i) for a caller that holds gids, the goroutines of
// s's choices (s.AppendChoiceGoroutines): choice i is found from them
// without enumerating the choices again (a random walk over thousands of
// goroutines).
func (m *Machine) StepAmong(s *State, i int, gids []int32) *State {
	return m.step(s, s.choiceAmong(i, gids), 0)
}

// StepInPlace is StepWithin for a caller that drops s: s is not used
// again, nor any state made from it before, so the transition may write
// s's own objects, goroutines, frames and pages where they are and return
// s itself, instead of copying them into a new state as every step does
// for the states a search keeps (a random walk's run, a depth-first
// search's chain of single successors: a copy of the running frame, the
// goroutine, the objects it writes and a State at each transition were
// about half of what a walk allocated). When s cannot be reused — a walk
// of it once sealed cached what it computed from its own objects
// (ownCached: they would change under the cache), or the machine checks
// each state against its parent (Options.Sanity) — it makes a new state
// as StepWithin does.
func (m *Machine) StepInPlace(s *State, i int, deadline int64) *State {
	return m.stepInPlace(s, s.choice(i), deadline)
}

// StepAmongInPlace is StepAmongWithin for a caller that drops s, as
// StepInPlace is StepWithin's.
func (m *Machine) StepAmongInPlace(s *State, i int, gids []int32, deadline int64) *State {
	return m.stepInPlace(s, s.choiceAmong(i, gids), deadline)
}

func (m *Machine) stepInPlace(s *State, ch Choice, deadline int64) *State {
	if s.ownCached || m.opts.Sanity || s.err != nil || s.exited {
		return m.step(s, ch, deadline)
	}
	pf := s.reuse()
	return m.stepState(nil, s, &pf, ch, deadline)
}

// reuse readies s to be its own successor (StepInPlace): what thaw
// resets, without a new epoch (s's own objects stay its own) and without
// sharing its heap and goroutine lists anew. It returns the parent's
// facts the transition reads (parentFacts).
func (s *State) reuse() parentFacts {
	pf := parentFacts{multi: s.hasChoices(2)}
	if s.evlog != nil {
		pf.logged = s.evlog.total
	}
	s.choices = nil
	s.fp = nil
	s.hashed, s.chashed, s.sealed = false, false, false
	s.probe, s.probeLong, s.probeClock, s.stepNowReads = 0, false, false, 0
	s.evOwn = false // (a run observer may hold the log: the next event copies its last chunk)
	return pf
}

// parentFacts are what a transition reads of the state it starts from
// once it may have written it (StepInPlace): whether that state had a
// choice (hang.go's idle marks) and its event log's length (runEnded).
type parentFacts struct {
	multi  bool
	logged int
}

// hadChoice reports whether parent, the state a transition started from,
// had more than one choice: pf's fact when the transition ran in parent
// itself (pf non-nil).
func (pf *parentFacts) hadChoice(parent *State) bool {
	if pf != nil {
		return pf.multi
	}
	return parent.hasChoices(2)
}

// loggedIn is the length of parent's event log (0: none), as hadChoice.
func (pf *parentFacts) loggedIn(parent *State) int {
	switch {
	case pf != nil:
		return pf.logged
	case parent.evlog != nil:
		return parent.evlog.total
	}
	return 0
}

func (m *Machine) step(s *State, ch Choice, deadline int64) *State {
	return m.stepState(s, s.thaw(), nil, ch, deadline)
}

// stepState runs the transition of choice ch in ns: a thawed copy of
// state s, or (s nil) the state itself readied by reuse, which returned
// the facts pf of it before.
func (m *Machine) stepState(s, ns *State, pf *parentFacts, ch Choice, deadline int64) *State {
	ns.depth++
	if ch.Kind == ChooseTimer {
		ns.last = Step{Op: "timer"}
		ns.fp = append(ns.fp, Access{Obj: 0, Write: true})
		for _, tm := range ns.timers {
			if tm.when == ns.timers[0].when && tm.ch.Obj != 0 {
				ns.fp = append(ns.fp, Access{Obj: tm.ch.Obj, Write: true})
			}
		}
		ns.fireTimers()
		ns.finishStep()
		if m.opts.Sanity {
			ns.sanity(s)
		}
		ns.runEnded(s, pf)
		ns.sealed = true
		return ns
	}
	if ch.Kind == ChooseBranch {
		ns.data = ns.data.choose(ch.Branch)
	}
	if ns.runnext == ch.G {
		ns.runnext = 0
	}
	g := ns.mutG(ch.G)
	if g.status == gBlocked {
		g.status = gRunnable
	}
	if g.entry || pf.hadChoice(s) {
		// the entry moves, or the schedule had a choice: no cycle that is
		// the only future without the entry so far (hang.go)
		ns.idle = nil
	}
	t := &thread{m: m, s: ns, g: g, selCase: -1, branch: -1, deadline: deadline}
	if ch.Kind == ChooseSelectCase {
		t.selCase = ch.Case
	}
	if ch.Kind == ChooseBranch {
		t.branch = ch.Branch
	}
	ns.last = Step{G: g.id, Loc: g.loc()}
	t.runGuarded()
	g.atSelect = g.topIsSelect()
	if g.status == gBlocked {
		g.work, g.spin = 0, nil
	} else if m.opts.StepTime == 0 { // (in real time no state repeats: the clock moves)
		g.work += int32(min(max(t.n, transitionWork), spinInstrs))
		if g.work >= g.spin.workBound() {
			g.work = 0
			ns.probeLong = true // it works without blocking (see time.go)
		}
		if t.polled || ns.probeLong || g.spin != nil && g.spin.probes > 0 {
			ns.probe = int32(g.id)
			ns.probeClock = t.polled && ns.stepNowReads >= clockPollReads
		} else if g.spin != nil && g.spin.spinning {
			si := *g.spin
			si.spinning = false // it did not return to a state of its cycle
			g.spin = &si
		}
	}
	ns.instrs += int64(t.n)
	if ns.last.Op == "" {
		ns.last.Op = "run"
	}
	ns.finishStep()
	if m.opts.Sanity {
		ns.sanity(s)
	}
	ns.runEnded(s, pf)
	ns.sealed = true
	return ns
}

// finishStep ends a transition: dead goroutines are dropped, timers fire
// if nothing else can run, the end of the program and leaks are detected.
func (s *State) finishStep() {
	s.prune()
	if st := s.m.opts.StepTime; st > 0 && s.err == nil && !s.exited && s.bubbles == 0 {
		s.clock += st
		if len(s.timers) > 0 && s.timers[0].when <= s.clock {
			s.fireTimers()
		}
	}
	if s.probe != 0 && s.err == nil && !s.exited {
		s.probeSpin(int(s.probe), s.probeLong, s.probeClock)
	}
	s.settle()
	if g := s.m.opts.EntryGrace; g > 0 && s.entryDone && s.err == nil && !s.exited && s.depth-s.entryDepth >= g {
		if s.m.opts.Checks.Leak {
			s.checkLeaks()
		}
		s.exited = s.err == nil // the process ends with goroutines still running
	}
	if s.err == nil && !s.exited && s.m.opts.Checks.Leak && s.leakCheckDue() {
		s.checkLeaks()
	}
	s.maybeCollect()
	s.maybeRetire()
}

// gcThreshold is the number of objects allocated between collections.
const gcThreshold = 1 << 18

// maybeCollect drops the objects no longer reachable from the program
// (the VM's garbage collector): they can never be read again, so the state
// is unchanged, and long allocating runs keep a bounded heap. It runs
// after every gcThreshold allocations along a path.
func (s *State) maybeCollect() {
	if (s.heap.next < s.lastGC+gcThreshold && s.heap.allocCells < maxAllocCells/2) || s.err != nil {
		return
	}
	s.lastGC = s.heap.next
	s.heap.allocCells = 0
	h := s.walk(s.m.allGlobals)
	defer h.release()
	for ci := range s.heap.numChunks() {
		c := s.heap.chunk(ci)
		if c == nil {
			continue
		}
		var nc *chunk
		for k, o := range c.objs {
			if o == nil {
				continue
			}
			id := ObjID(ci<<chunkBits | k)
			if _, live := h.number(id); live || id == s.m.zerobase {
				continue
			}
			if nc == nil {
				nc = s.heap.mutChunk(ci, s.epoch)
			}
			nc.objs[k] = nil
		}
	}
}

// prune drops dead goroutines.
func (s *State) prune() {
	if !s.died {
		return
	}
	s.died = false
	s.gs.removeDead(s.epoch, &s.gsShared)
}

// timersFired marks the transition being finished as dependent with
// every other one: the timers it lets fire (everything else blocked or
// spinning) wake goroutines and send on channels its own visible
// operation did not touch, and whether they fire depends on what every
// goroutine does.
func (s *State) timersFired() {
	s.fp = append(s.fp, Access{Obj: AllObjects, Write: true})
}

// settle fires timers when nothing else can run, and detects the end of
// the program: normal exit, global deadlock, or leaked goroutines.
func (s *State) settle() {
	fired := 0 // timer firings that enabled no goroutine
	for s.err == nil && !s.exited {
		any, busy := false, false
		for g := range s.gs.backward() { // newest first: the likeliest to run
			if s.enabled(g) {
				any = true
				if g.spin == nil || !g.spin.spinning {
					busy = true
					break
				}
			}
		}
		if busy {
			return
		}
		if any { // every goroutine that can run may be spinning (see time.go)
			if len(s.timers) > 0 && s.spinning() {
				s.timersFired()
				s.fireTimers()
			}
			return
		}
		if len(s.timers) > 0 && !s.onlyTickers(fired) && !s.onlyLate() {
			if !s.entryDone && s.hangs() {
				return
			}
			s.timersFired()
			s.fireTimers()
			fired++
			continue
		}
		if s.gs.len() == 0 {
			s.exited = true
			return
		}
		if s.entryDone {
			if s.m.opts.Checks.Leak {
				if leaked := s.leaked(); len(leaked) > 0 {
					s.fail(s.leakError(leaked))
					return
				}
			}
			s.exited = true
			return
		}
		e := s.deadlockError()
		if len(s.timers) > 0 { // only tickers: Go has no deadlock to report, it hangs
			e.Kind = KindHang
			e.Msg = "all goroutines are blocked forever while only tickers fire (go test: test timed out)"
		}
		s.fail(e)
		return
	}
}

// onlyTickers reports whether, every goroutine being blocked after fired
// firings of timers, only periodic timers remain and each has fired at
// least once: then firing them never ends and never wakes anyone (their
// channels' buffers are full and no goroutine receives), and the program
// is stuck for good, as if no timer were pending.
func (s *State) onlyTickers(fired int) bool {
	if fired <= len(s.timers) {
		return false
	}
	for _, tm := range s.timers {
		if tm.period == 0 {
			return false
		}
	}
	return true
}

// onlyLate reports whether every pending timer is late (set once a timer
// had fired after the entry returned, timer.late): the run then ends as
// if none were pending.
func (s *State) onlyLate() bool {
	if !s.entryDone {
		return false
	}
	for _, tm := range s.timers {
		if !tm.late {
			return false
		}
	}
	return true
}

func (s *State) deadlockError() *Error {
	e := &Error{Kind: KindDeadlock, Msg: "fatal error: all goroutines are asleep - deadlock!"}
	e.Goroutines = s.goroutineInfos(func(*goroutine) bool { return true })
	if len(e.Goroutines) > 0 {
		e.Loc = e.Goroutines[0].Loc
		e.Pos = s.m.position(e.Loc)
	}
	return e
}

// leakError reports the leaked goroutines (see leak.go).
func (s *State) leakError(leaked map[int]bool) *Error {
	e := &Error{Kind: KindLeak}
	e.Goroutines = s.goroutineInfos(func(g *goroutine) bool { return leaked[g.id] })
	n := len(e.Goroutines)
	e.Msg = "goroutine leak: " + itoa(n) + " goroutine"
	if n != 1 {
		e.Msg += "s"
	}
	if s.entryDone {
		e.Msg += " blocked forever after the entry returned"
	} else {
		e.Msg += " blocked forever (on objects no running goroutine can reach)"
	}
	if n > 0 {
		e.Loc = e.Goroutines[0].Loc
		e.Pos = s.m.position(e.Loc)
	}
	return e
}

// entryReturned is called when the entry function's goroutine ends.
func (s *State) entryReturned(t *thread) {
	s.entryDone = true
	if s.entry == EntryMain {
		// The process exits with main: goroutines still running are
		// ended, and the blocked ones that nothing running can reach are
		// leaked (Go 1.26's goroutine leak profile at exit). main's return
		// is not a scheduling point of its own: a goroutine started after
		// main's last one cannot block before it (a leak missed, never
		// one misreported).
		if s.m.opts.Checks.Leak {
			s.checkLeaks()
		}
		s.exited = s.err == nil
		s.fp = append(s.fp, Access{Obj: AllObjects, Write: true})
		return
	}
	if tf := t.m.testFailure(s); tf != nil {
		s.fail(tf)
	}
	s.m.opts.Ends.record(s)
	if s.m.opts.Checks.Leak {
		s.checkLeaks()
	}
	s.entryDepth = s.depth
}

// Access is one object touched by a visible operation: the footprint of
// transitions used by partial-order reduction. Obj 0 stands for the
// virtual clock and timers.
type Access struct {
	Obj   ObjID
	Write bool
	// Test: an AllObjects access of the testing natives only (the wait
	// of a parent for its subtests and of parallel subtests for their
	// parent: solo.go); dependent with everything as any AllObjects
	Test bool
}

// AllObjects in a footprint stands for the whole state: the transition
// observes or ends everything (main returning ends the process and checks
// for leaks), so it is dependent with every transition.
const AllObjects = ^ObjID(0)

func touchesAll(fp []Access) bool {
	for _, x := range fp {
		if x.Obj == AllObjects {
			return true
		}
	}
	return false
}

// Footprint returns the objects touched by the visible operations of the
// transition that produced s.
func (s *State) Footprint() []Access { return s.fp }

// Dependent reports whether two footprints conflict (a common object that
// at least one of them writes).
func Dependent(a, b []Access) bool {
	if touchesAll(a) || touchesAll(b) {
		return true
	}
	for _, x := range a {
		for _, y := range b {
			if x.Obj == y.Obj && (x.Write || y.Write) {
				return true
			}
		}
	}
	return false
}

// Stack returns the locations of goroutine id's frames, innermost first:
// the next instruction of the top frame, the call instruction of each
// caller. It is empty for a goroutine that ended or has not started.
func (s *State) Stack(id int) []loc.Loc {
	g := s.getG(id)
	if g == nil {
		return nil
	}
	var out []loc.Loc
	for f := g.top; f != nil; f = f.caller {
		if f.fn == nil || f.block == nil {
			continue
		}
		l := loc.Loc{Fn: f.fn.ssa, Block: f.block.index, Index: f.block.first + int(f.pc)}
		if f != g.top && f.pc > 0 {
			l.Index--
		}
		out = append(out, l)
	}
	return out
}

// GoroutineIDs returns the ids of the live goroutines, in order.
func (s *State) GoroutineIDs() []int {
	ids := make([]int, 0, s.gs.len())
	for g := range s.gs.all() {
		ids = append(ids, g.id)
	}
	return ids
}

// Goroutines describes the live goroutines, by id.
func (s *State) Goroutines() []GoroutineInfo {
	return s.goroutineInfos(func(*goroutine) bool { return true })
}

func (s *State) goroutineInfos(keep func(*goroutine) bool) []GoroutineInfo {
	var out []GoroutineInfo
	for g := range s.gs.all() {
		if g.status == gDead || !keep(g) {
			continue
		}
		gi := GoroutineInfo{ID: g.id, Start: g.start(), Loc: g.loc()}
		switch {
		case g.status == gBlocked && !s.guard(g):
			gi.Status = "blocked"
			gi.Wait = g.wait.reason
		default:
			gi.Status = "runnable"
		}
		for f := g.top; f != nil; f = f.caller {
			if f.fn == nil || f.block == nil {
				continue
			}
			l := loc.Loc{Fn: f.fn.ssa, Block: f.block.index, Index: f.block.first + int(f.pc)}
			if f != g.top && f.pc > 0 {
				l.Index-- // the call instruction
			}
			gi.Stack = append(gi.Stack, StackFrame{Func: f.fn.name, Pos: s.m.shortPosition(l), Loc: l})
		}
		out = append(out, gi)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
