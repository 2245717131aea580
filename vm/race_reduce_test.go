package vm

import (
	"path/filepath"
	"testing"

	"github.com/gmc-go/gmc/vm/load"
)

// mainBlocked runs testdata/dir's main with race detection alone (every
// other goroutine it starts waits) until main blocks or ends.
func mainBlocked(t *testing.T, dir string) (*Machine, *State) {
	t.Helper()
	m, s := mainStarted(t, dir)
	return m, runMain(m, s)
}

// mainStarted loads testdata/dir and starts its main with sync-only
// scheduling points and race detection.
func mainStarted(t *testing.T, dir string) (*Machine, *State) {
	t.Helper()
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", dir)})
	if err != nil {
		t.Fatal(err)
	}
	m := New(prog, Options{Sched: SchedSync, Checks: Checks{Race: true}})
	e, err := m.FindEntry("main")
	if err != nil {
		t.Fatal(err)
	}
	return m, m.Start(e)
}

// runMain runs main alone from s until it blocks, ends or fails.
func runMain(m *Machine, s *State) *State {
	for s.Err() == nil {
		idx := -1
		for i, c := range s.Choices() {
			if c.G == 1 {
				idx = i
			}
		}
		if idx < 0 {
			break
		}
		s = m.Step(s, idx)
	}
	return s
}

// TestRaceSummaryReductions checks the two reductions of the race
// summary on testdata/ownrace, in the state where main waits in wg.Wait
// and neither worker has run: each must merge states whose futures race
// alike and keep apart states whose futures do not (a reduction done
// naively fails the second half).
//
// Ownership (race_owner.go): main's write of o.x, which w alone reaches
// and w's clock covers. Moved to an epoch w covers and v does not, the
// hash stays (only w can reach o.x, and w is ordered after the write
// either way); moved to an epoch w does not cover (main's present one),
// the hash changes: w's p.x++ would race with it. Dropping the accesses
// of every object one goroutine reaches would merge the racy state.
//
// Minimal reads (race_hash.go, minimalReads): the reads of shared. A read
// by main at an older epoch than its own read, which it dominates, does
// not change the hash; a read by v (not dominated: main's clock does not
// cover it) does, and so does an atomic read dominating a plain one only
// by its clocks (a future atomic write races with the plain read only).
func TestRaceSummaryReductions(t *testing.T) {
	_, s := mainBlocked(t, "ownrace")
	if s.Err() != nil || s.gs.len() != 3 {
		t.Fatalf("main did not block with two workers: %v, %d goroutines", s.Err(), s.gs.len())
	}
	gs := s.gs.slice()
	mainG, v, w := gs[0], gs[1], gs[2]
	// the cells: o.x (main's write) and shared (main's read)
	var ox, sh *Object
	var oxIdx, shIdx int
	for id := ObjID(1); id < s.heap.next; id++ {
		o := s.heap.get(id)
		if o == nil {
			continue
		}
		for i, c := range o.shadow {
			if c == nil {
				continue
			}
			if c.w.c != 0 && c.w.g == mainG.id && !c.w.atomic {
				ox, oxIdx = o, i
			}
			for _, r := range c.reads {
				if r.g == mainG.id && len(c.reads) == 1 && c.w.c == 0 {
					sh, shIdx = o, i
				}
			}
		}
	}
	if ox == nil || sh == nil {
		t.Fatal("the shadows of o.x and shared not found")
	}
	orig := *ox.shadow[oxIdx]
	origSh := *sh.shadow[shIdx]
	rehash := func() uint64 {
		ox.race, sh.race = nil, nil // (the cached race views)
		s.hashed, s.chashed = false, false
		return s.Hash()
	}
	base := rehash()
	withWrite := func(c uint64) uint64 {
		ns := orig
		ns.w.c = c
		ox.shadow[oxIdx] = &ns
		defer func() { ox.shadow[oxIdx] = &orig }()
		return rehash()
	}
	if !(w.vc.get(mainG.id) > v.vc.get(mainG.id)) {
		t.Fatalf("w's clock of main (%d) not past v's (%d)", w.vc.get(mainG.id), v.vc.get(mainG.id))
	}
	if got := withWrite(w.vc.get(mainG.id)); got != base {
		t.Error("ownership: a write the owner covers changed the hash when only another goroutine's coverage changed")
	}
	if got := withWrite(mainG.vc.get(mainG.id)); got == base {
		t.Error("ownership: a write the owner does not cover (its access would race) hashes as one it covers")
	}
	withReads := func(extra ...access) uint64 {
		ns := origSh
		ns.reads = append(append([]access(nil), origSh.reads...), extra...)
		sh.shadow[shIdx] = &ns
		defer func() { sh.shadow[shIdx] = &origSh }()
		return rehash()
	}
	mainRead := origSh.reads[0]
	if rehash() != base {
		t.Fatal("the hash is not stable")
	}
	// main's read dominates its own earlier one (not covered by v: a
	// read after the go statement that started v)
	domin := access{g: mainG.id, c: mainRead.c - 1, loc: mainRead.loc}
	if domin.c <= v.vc.get(mainG.id) {
		t.Fatalf("main's read at %d is not past v's start (%d)", mainRead.c, v.vc.get(mainG.id))
	}
	if got := withReads(domin); got != base {
		t.Error("minimal reads: a read another read dominates changed the hash")
	}
	vRead := access{g: v.id, c: v.vc.get(v.id), loc: mainRead.loc}
	if got := withReads(vRead); got == base {
		t.Error("minimal reads: a read no other dominates (v's, main does not cover it) hashes as if absent")
	}
	// main's read, atomic, and beside it main's earlier read, plain: every
	// clock that covers the atomic read covers the plain one, but the
	// plain one is not dominated (an atomic write races with it only)
	atomicRead := mainRead
	atomicRead.atomic = true
	ns := origSh
	ns.reads = []access{atomicRead}
	sh.shadow[shIdx] = &ns
	onlyAtomic := rehash()
	ns2 := origSh
	ns2.reads = []access{atomicRead, domin}
	sh.shadow[shIdx] = &ns2
	atomicAndPlain := rehash()
	sh.shadow[shIdx] = &origSh
	if onlyAtomic == atomicAndPlain {
		t.Error("minimal reads: an atomic read dominated a plain one (a future atomic write races with the plain read only)")
	}
}

// TestHashLiveRegisters: the state hash covers the registers of a frame
// that some instruction from the frame's position may still read, and no
// other (liveness.go): in main's frame of testdata/ownrace, blocked in
// wg.Wait, changing a dead register (o, handed to w) leaves the hash as it
// is; changing a live one (a pointer main uses after the Wait) changes it.
func TestHashLiveRegisters(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "ownrace")})
	if err != nil {
		t.Fatal(err)
	}
	m := New(prog, Options{Sched: SchedSync})
	e, err := m.FindEntry("main")
	if err != nil {
		t.Fatal(err)
	}
	s := m.Start(e)
	for {
		idx := -1
		for i, c := range s.Choices() {
			if c.G == 1 {
				idx = i
			}
		}
		if idx < 0 || s.Err() != nil {
			break
		}
		s = m.Step(s, idx)
	}
	g := s.gs.slice()[0]
	var f *frame
	for fr := g.top; fr != nil; fr = fr.caller {
		if fr.fn != nil && fr.fn.name == "main.main" {
			f = fr
		}
	}
	if f == nil {
		t.Fatal("main's frame not found")
	}
	live, ok := f.fn.liveRegs(f.block.index, int(f.pc))
	if !ok {
		t.Fatal("no liveness for main")
	}
	isLive := map[int]bool{}
	for _, r := range live {
		isLive[r] = true
	}
	dead, kept := -1, -1
	for r, v := range f.regs {
		if _, ptr := v.(Pointer); !ptr {
			continue
		}
		if isLive[r] && kept < 0 {
			kept = r
		}
		if !isLive[r] && dead < 0 {
			dead = r
		}
	}
	if dead < 0 || kept < 0 {
		t.Fatalf("main's frame has no dead and live pointer registers: live %v of %d", live, len(f.regs))
	}
	rehash := func() uint64 {
		g.sum = nil // (the goroutine's cached summary)
		s.hashed, s.chashed = false, false
		return s.Hash()
	}
	base := rehash()
	with := func(r int) uint64 {
		old := f.regs[r]
		f.regs[r] = 12345
		defer func() { f.regs[r] = old }()
		return rehash()
	}
	if with(dead) != base {
		t.Errorf("a dead register (r%d) changed the hash", dead)
	}
	if with(kept) == base {
		t.Errorf("a live register (r%d) did not change the hash", kept)
	}
}
