package abstract

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/gmc-go/gmc/slice"
	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/ssa"
)

// Kind is the set of roles a location plays in the abstract system; a
// location may play several (a call site that is also a target).
type Kind uint16

const (
	Target   Kind = 1 << iota // a target location of L_t: e.g. panic("boom")
	Start                     // the start of the program or of a goroutine (L_s): first instruction of main, of f in go f()
	Entry                     // the start of a procedure invoked by a call site on a chain (Eq. 2.1)
	CallSite                  // a call on a call chain toward an abstract location (Eq. 2.1): check(elem)
	GoSite                    // a go statement on such a chain: go worker(c)
	Branch                    // a conditional branch controlling an abstract location (Eq. 2.2): if x > 9
	Def                       // a store that may define memory a branch reads (Eq. 2.3): elem.e = 11
	Acquire                   // a lock acquisition on the way (Eq. 2.4): mu.Lock()
	Release                   // the release of such a lock (Eq. 2.4): mu.Unlock(), defer mu.Unlock()
)

var kindNames = []string{"target", "start", "entry", "call", "go", "branch", "def", "acquire", "release"}

func (k Kind) String() string {
	var parts []string
	for i, n := range kindNames {
		if k&(1<<i) != 0 {
			parts = append(parts, n)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "+")
}

// Node is one location of the abstract system.
type Node struct {
	Loc  loc.Loc
	Kind Kind
	// Succs are the successor block indices of a Branch through which some
	// abstract location is reached (the "desired" sides, Eq. 2.2).
	Succs []int
	// Lock names the mutex of an Acquire or Release (see LockKey).
	Lock string
	// Deferred is set on a Release made by a defer statement (it takes
	// effect when the function returns).
	Deferred bool
	// Releases are the Release locations matching an Acquire
	// (releaseLock of the seed; used by refinement, Fig. 2.6 line 7).
	Releases []loc.Loc
}

// System is the abstract system A = <L_α, E_α> of the main seed (§2.4.2).
type System struct {
	Prog    *slice.Program
	Targets []loc.Loc // L_t, in the order given (may repeat a location)
	Starts  []loc.Loc // L_s: the entries and every goroutine start reachable from them
	Nodes   map[loc.Loc]*Node
	Edges   map[loc.Loc][]Edge // E_α, by source
	order   []loc.Loc
}

// Config says what to abstract.
type Config struct {
	Targets []loc.Loc       // the target locations L_t (at least one)
	Entries []*ssa.Function // the program's entry functions (e.g. main.main)
	// NoDefChains leaves out the call chains toward definitions (Eq. 2.1 is
	// then applied to targets only, as in the seed; definitions in other
	// functions stay in L_α but are not on traces).
	NoDefChains bool
	// Stop, when not nil, ends the construction once it is closed: Build
	// then returns ErrStopped (a check whose planning time is over).
	Stop <-chan struct{}
}

// ErrStopped is Build's error when Config.Stop was closed before the
// system was complete.
var ErrStopped = errors.New("abstract: construction stopped")

// Locs returns the locations of L_α in deterministic order.
func (s *System) Locs() []loc.Loc { return s.order }

// Build constructs the abstract system for the targets (Eq. 2.1–2.5).
func Build(p *slice.Program, cfg Config) (*System, error) {
	if len(cfg.Targets) == 0 {
		return nil, fmt.Errorf("abstract: no target")
	}
	if len(cfg.Entries) == 0 {
		return nil, fmt.Errorf("abstract: no entry function")
	}
	s := &System{Prog: p, Targets: cfg.Targets, Nodes: map[loc.Loc]*Node{}, Edges: map[loc.Loc][]Edge{}}
	b := &builder{sys: s, cfg: cfg, chained: map[*ssa.Function]bool{}, byFn: map[*ssa.Function][]*Node{}}
	for _, t := range cfg.Targets {
		if t.Valid() {
			p.Open(t.Fn) // a target in the standard library is sliced as code
		}
	}
	b.reach = p.ReachableFrom(cfg.Entries)
	var starts []*ssa.Function
	for _, e := range cfg.Entries {
		if len(e.Blocks) > 0 {
			starts = append(starts, e)
		}
	}
	for _, g := range p.GoStarts(b.reach) {
		if len(g.Blocks) > 0 {
			starts = append(starts, g)
		}
	}
	for _, f := range starts {
		l := slice.Start(f)
		if b.add(l, Start) {
			s.Starts = append(s.Starts, l)
		}
	}
	for _, e := range cfg.Entries {
		b.chained[e] = true // an entry needs no call chain (Eq. 2.1 ends at L_s)
	}
	s.Targets = nil
	for _, t := range cfg.Targets {
		if !t.Valid() {
			return nil, fmt.Errorf("abstract: invalid target %v", t)
		}
		t = b.twin(t)
		s.Targets = append(s.Targets, t)
		b.add(t, Target)
	}
	if !b.fixpoint() {
		return nil, ErrStopped
	}
	for l := range s.Nodes {
		s.order = append(s.order, l)
	}
	slice.SortLocs(s.order)
	s.buildEdges()
	return s, nil
}

// twin maps a target in a function the entries cannot reach to the same
// instruction of a reachable function of the same name and shape: a
// package and its test variant are two copies of the same source, and the
// tests may reach either.
func (b *builder) twin(t loc.Loc) loc.Loc {
	if b.reach[t.Fn] {
		return t
	}
	name := t.Fn.String()
	for fn := range b.reach {
		if fn != t.Fn && len(fn.Blocks) == len(t.Fn.Blocks) && fn.Pos() == t.Fn.Pos() && fn.String() == name &&
			len(fn.Blocks[t.Block].Instrs) == len(t.Fn.Blocks[t.Block].Instrs) {
			return loc.Loc{Fn: fn, Block: t.Block, Index: t.Index}
		}
	}
	return t
}

type builder struct {
	sys     *System
	cfg     Config
	reach   map[*ssa.Function]bool // functions reachable from the entries
	chained map[*ssa.Function]bool // functions whose call chains are in L_α
	byFn    map[*ssa.Function][]*Node
	work    []*Node
}

// add puts l into L_α with the given role; it reports whether l is new.
func (b *builder) add(l loc.Loc, k Kind) bool {
	if n, ok := b.sys.Nodes[l]; ok {
		if n.Kind&k != k {
			n.Kind |= k
			b.work = append(b.work, n) // re-evaluate with the new role
		}
		return false
	}
	n := &Node{Loc: l, Kind: k}
	b.sys.Nodes[l] = n
	b.byFn[l.Fn] = append(b.byFn[l.Fn], n)
	b.work = append(b.work, n)
	return true
}

// fixpoint reports false when it stopped before the fixpoint because
// Config.Stop was closed (checked before each location).
func (b *builder) fixpoint() bool {
	for len(b.work) > 0 {
		if b.stopped() {
			return false
		}
		n := b.work[0]
		b.work = b.work[1:]
		if n.Kind&(Target|Def) != 0 && (n.Kind&Target != 0 || !b.cfg.NoDefChains) {
			b.chain(n.Loc.Fn)
		}
		b.controlling(n)
		if n.Kind&Branch != 0 {
			b.definitions(n)
		}
		b.locks(n)
	}
	return true
}

// stopped reports whether Config.Stop is closed.
func (b *builder) stopped() bool {
	select {
	case <-b.cfg.Stop:
		return true
	default:
		return false
	}
}

// chain adds the call sites on call chains from the starts to fn, and the
// entries of the procedures they invoke (Eq. 2.1).
func (b *builder) chain(fn *ssa.Function) {
	work := []*ssa.Function{fn}
	for len(work) > 0 {
		g := work[len(work)-1]
		work = work[:len(work)-1]
		if b.chained[g] {
			continue
		}
		b.chained[g] = true
		for _, site := range b.sys.Prog.Callers(g) {
			if !b.reach[site.Loc.Fn] {
				continue
			}
			k := CallSite
			if site.Kind == slice.Go {
				k = GoSite
			}
			b.add(site.Loc, k)
			if b.sys.Nodes[slice.Start(g)] == nil || b.sys.Nodes[slice.Start(g)].Kind&(Start|Entry) == 0 {
				b.add(slice.Start(g), Entry)
			}
			work = append(work, site.Loc.Fn)
		}
	}
}

// controlling adds the branches n is control dependent on, with the
// successor that leads to n (Eq. 2.2).
func (b *builder) controlling(n *Node) {
	f := b.sys.Prog.Func(n.Loc.Fn)
	if f == nil {
		return
	}
	for _, cd := range f.CD[n.Loc.Block] {
		b.add(cd.Branch, Branch)
		br := b.sys.Nodes[cd.Branch]
		if !containsInt(br.Succs, cd.Succ) {
			br.Succs = append(br.Succs, cd.Succ)
			sort.Ints(br.Succs)
		}
	}
}

// maxDefs bounds the definitions in other functions added for one branch:
// with type-based aliasing a predicate reading a common type would otherwise
// pull in every store of that type in the program.
const maxDefs = 16

// definitions adds the stores that may define memory read by the branch's
// predicate and reach it sequentially (Eq. 2.3).
func (b *builder) definitions(n *Node) {
	ifi, ok := n.Loc.Instr().(*ssa.If)
	if !ok {
		return
	}
	p := b.sys.Prog
	others := 0
	for _, src := range p.ValueSources(ifi.Cond) {
		for _, a := range slice.Accesses(src.Instr()) {
			if a.Write {
				continue
			}
			for _, st := range p.ReachingStoresN(src, a.Class, maxDefs-others) {
				if !b.reach[st.Fn] {
					continue
				}
				if st.Fn != n.Loc.Fn {
					if others >= maxDefs {
						continue
					}
					others++
				}
				b.add(st, Def)
			}
		}
	}
}

const onTheWay = Target | CallSite | GoSite | Branch | Def

// locks adds the lock acquisitions of n's function from which n can be
// reached, and the releases matching them (Eq. 2.4).
func (b *builder) locks(n *Node) {
	if n.Kind&onTheWay == 0 && n.Kind&Acquire == 0 {
		return
	}
	fn := n.Loc.Fn
	f := b.sys.Prog.Func(fn)
	if f == nil {
		return
	}
	for _, blk := range fn.Blocks {
		for _, in := range blk.Instrs {
			k, mu := LockOp(in)
			if k == NotLock {
				continue
			}
			l := loc.Of(in)
			if n.Kind&onTheWay != 0 && k.Acquires() && l != n.Loc && f.Path(l, n.Loc) {
				if _, isGo := in.(*ssa.Go); !isGo {
					b.add(l, Acquire)
					b.sys.Nodes[l].Lock = LockKey(mu)
				}
			}
			if n.Kind&Acquire != 0 && k.Releases() && LockKey(mu) == n.Lock && f.Path(n.Loc, l) {
				b.add(l, Release)
				r := b.sys.Nodes[l]
				r.Lock = n.Lock
				_, r.Deferred = in.(*ssa.Defer)
				if !containsLoc(n.Releases, l) {
					n.Releases = append(n.Releases, l)
				}
			}
		}
	}
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func containsLoc(xs []loc.Loc, x loc.Loc) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
