package warn

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"
)

// LockOrder reports lock-order cycles: a mutex B acquired while A is held
// on one path and A acquired while B is held on another, so two goroutines
// can deadlock (AB-BA). The targets are the two inner acquisitions.
var LockOrder = &analysis.Analyzer{
	Name:     "lockorder",
	Doc:      "report lock-order cycles (AB-BA) that can deadlock two goroutines\n\nA mutex B acquired while A is held, and A acquired while B is held elsewhere, directly or in a callee.",
	Requires: []*analysis.Analyzer{buildssa.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		report(pass, CheckLockOrder(passModel(pass)))
		return nil, nil
	},
}

// orderEdge says: inner was acquired while outer was held.
type orderEdge struct {
	outer, inner acquisition
	site         loc.Loc // the call through which inner was reached, if any
}

func (e orderEdge) via() []loc.Loc {
	if e.site.Fn == nil {
		return nil
	}
	return []loc.Loc{e.site}
}

// CheckLockOrder finds AB-BA cycles between distinct mutexes (by may-alias
// name; cycles of length two).
func CheckLockOrder(m *Model) []Warning {
	edges := map[[2]string]orderEdge{}
	var self []orderEdge // two distinct mutexes of the same may-alias name
	add := func(outer, inner acquisition, site loc.Loc) {
		if outer.read && inner.read {
			return
		}
		if outer.key == inner.key {
			if outer.id != inner.id && !strings.HasPrefix(outer.key, "global ") {
				self = append(self, orderEdge{outer, inner, site})
			}
			return
		}
		k := [2]string{outer.key, inner.key}
		if _, ok := edges[k]; !ok {
			edges[k] = orderEdge{outer, inner, site}
		}
	}
	for _, fn := range m.Funcs {
		walkHeld(fn, func(in ssa.Instruction, s lockState) {
			if len(s.held) == 0 {
				return
			}
			var inner []acquisition
			var site loc.Loc
			if c, ok := in.(*ssa.Call); ok {
				ns := s.clone()
				transfer(in, ns)
				for id, a := range ns.held {
					if _, was := s.held[id]; !was {
						inner = append(inner, a)
					}
				}
				if len(inner) == 0 {
					site = loc.Of(c)
					for _, g := range m.Callees(c) {
						if m.inFuncs[g] {
							inner = append(inner, m.acquisitions(g)...)
						}
					}
				}
			}
			for _, h := range sortedHeld(s) {
				for _, a := range inner {
					add(h, a, site)
				}
			}
		})
	}
	var out []Warning
	reported := map[loc.Loc]bool{}
	for _, e := range self {
		if reported[e.inner.at] {
			continue
		}
		reported[e.inner.at] = true
		fset := e.inner.at.Fn.Prog.Fset
		out = append(out, Warning{
			Check: "lockorder",
			Pos:   e.inner.at.Pos(),
			Msg: fmt.Sprintf("lock order cycle: %s acquired here while another %s is held (locked at %s); two goroutines doing this with the objects swapped deadlock",
				short(e.inner.key), short(e.outer.key), e.outer.at.Position(fset)),
			Targets: []loc.Loc{e.inner.at, e.inner.at},
			Via:     e.via(),
		})
	}
	keys := make([][2]string, 0, len(edges))
	for k := range edges {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i][0]+"\x00"+keys[i][1] < keys[j][0]+"\x00"+keys[j][1] })
	for _, k := range keys {
		if k[0] > k[1] {
			continue
		}
		back, ok := edges[[2]string{k[1], k[0]}]
		if !ok {
			continue
		}
		e := edges[k]
		first, second := e, back
		if second.inner.at.Pos() < first.inner.at.Pos() {
			first, second = second, first
		}
		fset := first.inner.at.Fn.Prog.Fset
		out = append(out, Warning{
			Check: "lockorder",
			Pos:   first.inner.at.Pos(),
			Msg: fmt.Sprintf("lock order cycle: %s acquired here while holding %s (locked at %s); %s acquired while holding %s at %s",
				short(first.inner.key), short(first.outer.key), first.outer.at.Position(fset),
				short(second.inner.key), short(second.outer.key), second.inner.at.Position(fset)),
			Targets: []loc.Loc{first.inner.at, second.inner.at},
			Via:     append(first.via(), second.via()...),
		})
	}
	return out
}

func sortedHeld(s lockState) []acquisition {
	out := make([]acquisition, 0, len(s.held))
	for _, a := range s.held {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}
