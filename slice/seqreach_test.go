package slice

import (
	"testing"

	"github.com/gmc-go/gmc/vm/load"
	"golang.org/x/tools/go/ssa"
)

// seqReachesByWalk is SeqReaches as defined, by two walks per question:
// d and its synchronous callers, transitively, against the functions
// reaching u and the initializers.
func seqReachesByWalk(p *Program, d, u *ssa.Function) bool {
	if d == u {
		return true
	}
	r := p.Reaching([]*ssa.Function{u})
	seen := map[*ssa.Function]bool{d: true}
	for work := []*ssa.Function{d}; len(work) > 0; {
		c := work[len(work)-1]
		work = work[:len(work)-1]
		if r[c] || isInit(c) {
			return true
		}
		for _, s := range p.callers[c] {
			if s.Kind != Go && !seen[s.Loc.Fn] {
				seen[s.Loc.Fn] = true
				work = append(work, s.Loc.Fn)
			}
		}
	}
	return false
}

// TestSeqReachesByWalk compares SeqReaches with its definition on every
// pair of a program's functions whose later function is in the root
// package (both answers counted so that the test cannot pass vacuously).
func TestSeqReachesByWalk(t *testing.T) {
	lp, err := load.Load(load.Config{Dir: "testdata/seqreach"})
	if err != nil {
		t.Fatal(err)
	}
	p := New(lp.SSA)
	var us, ds []*ssa.Function
	for fn := range p.all {
		ds = append(ds, fn)
		if fn.Pkg == lp.Roots[0] {
			us = append(us, fn)
		}
	}
	yes, no := 0, 0
	for _, u := range us {
		for _, d := range ds {
			got, want := p.SeqReaches(d, u), seqReachesByWalk(p, d, u)
			if got != want {
				t.Errorf("SeqReaches(%v, %v) = %v, want %v", d, u, got, want)
			}
			if want {
				yes++
			} else {
				no++
			}
		}
	}
	if yes == 0 || no == 0 {
		t.Fatalf("%d pairs reach, %d do not: the program does not test both answers", yes, no)
	}
	t.Logf("%d functions before %d root functions: %d pairs reach, %d do not", len(ds), len(us), yes, no)
}
