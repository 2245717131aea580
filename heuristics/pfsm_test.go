package heuristics

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/gmc-go/gmc/slice"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/loc"
)

// distProg is the loaded testdata/dist program and its functions by name.
type distProg struct {
	sp  *slice.Program
	fns map[string]*ssa.Function
}

func loadDist(t *testing.T) *distProg {
	t.Helper()
	p, err := load.Load(load.Config{Dir: filepath.Join("testdata", "dist")})
	if err != nil {
		t.Fatal(err)
	}
	d := &distProg{sp: slice.New(p.SSA), fns: map[string]*ssa.Function{}}
	for fn := range ssautil.AllFunctions(p.SSA) {
		if fn.Pkg != nil && fn.Pkg.Pkg.Name() == "main" {
			d.fns[fn.RelString(fn.Pkg.Pkg)] = fn
		}
	}
	return d
}

func (d *distProg) fn(t *testing.T, name string) *ssa.Function {
	t.Helper()
	f := d.fns[name]
	if f == nil {
		t.Fatalf("no function %s in testdata/dist", name)
	}
	return f
}

// start is the first instruction of fn.
func start(fn *ssa.Function) loc.Loc { return loc.Loc{Fn: fn, Block: 0, Index: 0} }

// callOf returns the location of the first call in fn whose callee's name
// (or method name) is name.
func callOf(t *testing.T, fn *ssa.Function, name string) loc.Loc {
	t.Helper()
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			c, ok := in.(*ssa.Call)
			if !ok {
				continue
			}
			if (c.Call.Method != nil && c.Call.Method.Name() == name) ||
				(c.Call.StaticCallee() != nil && c.Call.StaticCallee().Name() == name) {
				return loc.Of(in)
			}
		}
	}
	t.Fatalf("no call of %s in %s", name, fn)
	return loc.Loc{}
}

// next is the instruction after l in its block.
func next(l loc.Loc) loc.Loc { l.Index++; return l }

func TestPFSMDistances(t *testing.T) {
	d := loadDist(t)
	pfsm, fsm := NewPFSM(d.sp), NewFSM(d.sp)
	tgt := start(d.fn(t, "target"))

	if got := pfsm.Distance([]loc.Loc{tgt}, tgt); got != 0 {
		t.Errorf("distance from the target to itself = %d, want 0", got)
	}
	never := d.fn(t, "never")
	if got := pfsm.Distance([]loc.Loc{start(never)}, tgt); got != Inf {
		t.Errorf("never reaches the target at distance %d, want Inf", got)
	}

	// a static call costs one plus the callee's start→return distance
	straight := d.fn(t, "straight")
	call := callOf(t, straight, "leaf")
	before := pfsm.Distance([]loc.Loc{call}, tgt)
	after := pfsm.Distance([]loc.Loc{next(call)}, tgt)
	leafExit := pfsm.Distance([]loc.Loc{start(d.fn(t, "leaf"))}, tgt)
	if before >= Inf || after >= Inf {
		t.Fatalf("straight: distances %d, %d; want finite", before, after)
	}
	leafLen := len(d.fn(t, "leaf").Blocks[0].Instrs) - 1 // instructions before its return
	if before-after != 1+leafLen {
		t.Errorf("static call of leaf costs %d, want 1 + %d", before-after, leafLen)
	}
	// unrolling the stack: inside leaf, called from straight, the
	// distance goes through leaf's return and on in straight
	if leafExit != Inf {
		t.Errorf("leaf alone reaches the target at %d; want Inf (only its caller does)", leafExit)
	}
	inLeaf := pfsm.Distance([]loc.Loc{start(d.fn(t, "leaf")), call}, tgt)
	if want := leafLen + 1 + after; inLeaf != want {
		t.Errorf("from leaf's start with straight as caller: %d, want %d", inLeaf, want)
	}
	// each instruction of straight-line code costs one
	if got := pfsm.Distance([]loc.Loc{next(next(call))}, tgt); after-got != 1 {
		t.Errorf("one non-call instruction costs %d, want 1", after-got)
	}

	// an interface call costs 2 under PFSM (the callee is not known);
	// FSM takes the shortest implementation (square.area)
	vs := d.fn(t, "viaShape")
	icall := callOf(t, vs, "area")
	pb, pa := pfsm.Distance([]loc.Loc{icall}, tgt), pfsm.Distance([]loc.Loc{next(icall)}, tgt)
	if pb-pa != 2 { // the seed's conservative cost
		t.Errorf("PFSM: an interface call costs %d, want 2", pb-pa)
	}
	sq := d.fn(t, "(square).area")
	sqLen := 0
	for _, b := range sq.Blocks {
		sqLen += len(b.Instrs)
	}
	fb, fa := fsm.Distance([]loc.Loc{icall}, tgt), fsm.Distance([]loc.Loc{next(icall)}, tgt)
	if fb-fa != 1+sqLen-1 {
		t.Errorf("FSM: the interface call costs %d, want 1 + square.area's %d", fb-fa, sqLen-1)
	}

	// across calls (Fig. 4.4): main reaches target through straight
	mainFn := d.fn(t, "main")
	if got := pfsm.Distance([]loc.Loc{start(mainFn)}, tgt); got >= Inf || got <= 1 {
		t.Errorf("main's start reaches the target at %d; want a finite distance through straight", got)
	}
	// a loop: the loop head is farther than the instruction after the loop
	lp := d.fn(t, "looping")
	tcall := callOf(t, lp, "target")
	if h, e := pfsm.Distance([]loc.Loc{start(lp)}, tgt), pfsm.Distance([]loc.Loc{tcall}, tgt); h <= e || e != 1 {
		t.Errorf("looping: start %d, call of target %d; want start > call = 1", h, e)
	}
}
