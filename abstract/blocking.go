package abstract

import (
	"go/token"
	"go/types"
	"sort"

	"github.com/gmc-go/gmc/slice"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/ssa"
)

// SiteBlock is a blocking operation where a goroutine may wait forever.
const SiteBlock SiteKind = "block"

// blockingMethods are the sync methods that block, by receiver type name.
var blockingMethods = map[string]map[string]string{
	"Mutex":     {"Lock": "sync.Mutex.Lock"},
	"RWMutex":   {"Lock": "sync.RWMutex.Lock", "RLock": "sync.RWMutex.RLock"},
	"WaitGroup": {"Wait": "sync.WaitGroup.Wait"},
	"Cond":      {"Wait": "sync.Cond.Wait"},
}

// BlockingSites returns the blocking operations (channel sends and
// receives, selects without a default, sync.Mutex/RWMutex locks,
// WaitGroup and Cond waits) of the root packages that the goroutines the
// entry starts, directly or not, can execute: where a leaked goroutine
// waits. They are ordered deterministically, one per source position.
func BlockingSites(p *load.Program, sp *slice.Program, entry *ssa.Function) []Site {
	roots := map[*ssa.Function]bool{}
	for _, fn := range RootFuncs(p) {
		roots[fn] = true
	}
	inGoroutines := sp.ReachableFrom(sp.GoStarts(sp.ReachableFrom([]*ssa.Function{entry})))
	var out []Site
	for fn := range inGoroutines {
		if !roots[fn] {
			continue
		}
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				if what := blockingOp(in); what != "" && in.Pos().IsValid() {
					out = append(out, Site{SiteBlock, loc.Of(in), what})
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return slice.Less(out[i].Loc, out[j].Loc) })
	return dedupSites(p.SSA.Fset, out)
}

// blockingOp names the blocking operation in, or returns "".
func blockingOp(in ssa.Instruction) string {
	switch in := in.(type) {
	case *ssa.Send:
		return "chan send"
	case *ssa.UnOp:
		if in.Op == token.ARROW {
			return "chan receive"
		}
	case *ssa.Select:
		if in.Blocking {
			return "select"
		}
	case *ssa.Call:
		callee := in.Call.StaticCallee()
		if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg.Path() != "sync" {
			return ""
		}
		recv := callee.Signature.Recv()
		if recv == nil {
			return ""
		}
		t := recv.Type()
		if ptr, ok := t.(*types.Pointer); ok {
			t = ptr.Elem()
		}
		if named, ok := t.(*types.Named); ok {
			return blockingMethods[named.Obj().Name()][callee.Name()]
		}
	}
	return ""
}
