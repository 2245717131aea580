package abstract

import (
	"sort"

	"github.com/gmc-go/gmc/slice"
	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/ssa"
)

// EdgeKind says how control gets from one abstract location to the next.
type EdgeKind uint8

const (
	Flow   EdgeKind = iota // along the CFG of one function, skipping calls without abstract locations
	Call                   // from a call site to the entry of a callee
	Spawn                  // from a go statement to the start of the new goroutine
	Return                 // out of the function through returns to the call sites in Edge.Returns
)

func (k EdgeKind) String() string { return [...]string{"flow", "call", "go", "return"}[k] }

// Edge is one edge of E_α.
type Edge struct {
	To   loc.Loc
	Kind EdgeKind
	// Succ is, for an edge leaving a Branch, the index of the successor
	// block the edge goes through; -1 when either side leads to To.
	Succ int
	// Returns lists the call sites returned to, innermost first; the edge
	// continues just after the last one.
	Returns []loc.Loc
}

// buildEdges computes E_α (Eq. 2.5) by projecting the interprocedural CFG
// onto L_α: an edge joins a and b when control can go from a to b without
// passing another abstract location. Post-dominance (Eq. 2.5) thus holds: no
// location of L_α lies between a and b on every path. Calls into functions
// without abstract locations are stepped over; a call site in L_α leads to
// the entries of its callees, and a function's returns lead back to the
// abstract call sites of its callers.
func (s *System) buildEdges() {
	for _, l := range s.order {
		n := s.Nodes[l]
		var out []Edge
		in := l.Instr()
		if c, ok := in.(ssa.CallInstruction); ok && n.Kind&(CallSite|GoSite) != 0 {
			skip := false
			for _, g := range s.Prog.Callees(c) {
				if e := s.Nodes[slice.Start(g)]; e != nil && e.Kind&(Start|Entry) != 0 {
					k := Call
					if n.Kind&GoSite != 0 {
						k = Spawn
					}
					out = append(out, Edge{To: e.Loc, Kind: k, Succ: -1})
				} else {
					skip = true
				}
			}
			if _, sync := c.(*ssa.Call); !sync || skip || len(s.Prog.Callees(c)) == 0 {
				out = append(out, s.project(l.Fn, l.Block, l.Index+1, -1)...)
			}
		} else if br, ok := in.(*ssa.If); ok && n.Kind&Branch != 0 {
			for i, succ := range br.Block().Succs {
				out = append(out, s.project(l.Fn, succ.Index, 0, i)...)
			}
		} else if _, ok := in.(*ssa.Panic); !ok {
			out = append(out, s.project(l.Fn, l.Block, l.Index+1, -1)...)
		}
		s.Edges[l] = mergeEdges(out)
	}
}

type scanItem struct {
	fn      *ssa.Function
	block   int
	from    int
	returns []loc.Loc
}

// project finds the abstract locations first reached from instruction
// (fn, block, from) onward.
func (s *System) project(fn *ssa.Function, block, from, succ int) []Edge {
	var out []Edge
	type key struct {
		fn          *ssa.Function
		block, from int
	}
	seen := map[key]bool{}
	work := []scanItem{{fn, block, from, nil}}
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		k := key{it.fn, it.block, it.from}
		if seen[k] {
			continue
		}
		seen[k] = true
		blk := it.fn.Blocks[it.block]
		hit := false
		for i := it.from; i < len(blk.Instrs); i++ {
			l := loc.Loc{Fn: it.fn, Block: it.block, Index: i}
			if n := s.Nodes[l]; n != nil {
				kind := Flow
				if len(it.returns) > 0 {
					kind = Return
				}
				out = append(out, Edge{To: l, Kind: kind, Succ: succ, Returns: it.returns})
				hit = true
				break
			}
		}
		if hit || len(blk.Instrs) == 0 {
			continue
		}
		switch blk.Instrs[len(blk.Instrs)-1].(type) {
		case *ssa.Return:
			if len(it.returns) >= 8 {
				continue
			}
			for _, site := range s.Prog.Callers(it.fn) {
				if site.Kind != slice.Call || s.Nodes[site.Loc] == nil {
					continue
				}
				rets := append(append([]loc.Loc(nil), it.returns...), site.Loc)
				work = append(work, scanItem{site.Loc.Fn, site.Loc.Block, site.Loc.Index + 1, rets})
			}
		case *ssa.Panic:
		default:
			for _, sc := range blk.Succs {
				work = append(work, scanItem{it.fn, sc.Index, 0, it.returns})
			}
		}
	}
	return out
}

// mergeEdges removes duplicates; edges from both sides of a branch to the
// same location become one edge with Succ -1.
func mergeEdges(es []Edge) []Edge {
	type key struct {
		to   loc.Loc
		kind EdgeKind
		rets string
	}
	idx := map[key]int{}
	var out []Edge
	for _, e := range es {
		k := key{e.To, e.Kind, locsKey(e.Returns)}
		if i, ok := idx[k]; ok {
			if out[i].Succ != e.Succ {
				out[i].Succ = -1
			}
			continue
		}
		idx[k] = len(out)
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].To != out[j].To {
			return slice.Less(out[i].To, out[j].To)
		}
		return out[i].Kind < out[j].Kind
	})
	return out
}

func locsKey(ls []loc.Loc) string {
	b := make([]byte, 0, 32*len(ls))
	for _, l := range ls {
		b = append(b, l.String()...)
		b = append(b, ';')
	}
	return string(b)
}
