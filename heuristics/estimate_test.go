package heuristics

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/gmc-go/gmc/abstract"
	"github.com/gmc-go/gmc/slice"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// TestEstimate: choices are ranked before they run from where their
// goroutines will stand. With a trace whose head is worker's start, the
// first transition of the goroutine that will run worker (not started yet:
// vm.State.StartFunc names its function) ranks before the one of the
// goroutine running idle, which cannot reach the head; Rebase matches a
// path again without its states as Rank did.
func TestEstimate(t *testing.T) {
	p, err := load.Load(load.Config{Dir: filepath.Join("testdata", "spawn")})
	if err != nil {
		t.Fatal(err)
	}
	fns := map[string]*ssa.Function{}
	for fn := range ssautil.AllFunctions(p.SSA) {
		if fn.Pkg != nil && fn.Pkg.Pkg.Name() == "main" {
			fns[fn.Name()] = fn
		}
	}
	worker, idle := fns["worker"], fns["idle"]
	if worker == nil || idle == nil {
		t.Fatal("no worker or idle in testdata/spawn")
	}
	ts := &abstract.TraceSet{Traces: []abstract.Trace{{Steps: []abstract.Step{{Loc: start(worker), Kind: abstract.Start, Succ: -1}}}}}
	meta := &Meta{TS: ts, Sec: SecPFSM, Dist: NewPFSM(slice.New(p.SSA))}
	m := vm.New(p, vm.Options{Breakpoints: meta.Breakpoints()})
	e, err := m.FindEntry("main")
	if err != nil {
		t.Fatal(err)
	}
	s := m.Start(e)
	r := meta.Root(s)
	// run main until both goroutines exist and neither has started
	for i := 0; i < 1000; i++ {
		if s.StartFunc(2) != nil && s.StartFunc(3) != nil {
			break
		}
		cs := s.Choices()
		k := -1
		for j, c := range cs {
			if c.G == 1 {
				k = j
			}
		}
		if k < 0 {
			t.Fatalf("main cannot run; choices %v", cs)
		}
		n := m.Step(s, k)
		r = meta.Rank(r, n, cs[k])
		s = n
	}
	est := map[*ssa.Function]int{}
	for _, c := range s.Choices() {
		if fn := s.StartFunc(c.G); fn != nil {
			est[fn] = meta.Estimate(r, s, c)
		}
	}
	if len(est) != 2 {
		t.Fatalf("estimates of the unstarted goroutines: %v", est)
	}
	if est[worker] >= est[idle] || est[worker] >= Inf {
		t.Errorf("worker's first transition estimated %d, idle's %d: want worker's finite and first", est[worker], est[idle])
	}
	// run worker's goroutine: its start matches the head, and Rebase
	// matches the step again from the parent's rank alone
	for i, c := range s.Choices() {
		if s.StartFunc(c.G) == worker {
			n := m.Step(s, i)
			got := meta.Rank(r, n, c)
			if got.Level != r.Level+1 {
				t.Errorf("worker's start: level %d after %d, want one more", got.Level, r.Level)
			}
			if rb := meta.Rebase(r, got); rb.Level != got.Level || meta.TracePos(rb, 0) != 1 {
				t.Errorf("Rebase: level %d, position %d; Rank gave level %d", rb.Level, meta.TracePos(rb, 0), got.Level)
			}
		}
	}
}
