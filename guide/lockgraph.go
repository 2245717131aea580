package guide

import (
	"fmt"
	"go/token"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gmc-go/gmc/abstract"
	"github.com/gmc-go/gmc/heuristics"
	"github.com/gmc-go/gmc/refine"
	"github.com/gmc-go/gmc/slice"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/ssa"
)

// This file holds the lock-graph monitor (GoodLock, Havelund 2000, with
// the gate locks and start ordering of Bensalem and Havelund 2005, as
// Artho et al. run it on every execution): the VM tells it every lock
// acquisition of every run of a check together with the locks the
// acquiring goroutine holds (vm.LockObserver); each lock held at an
// acquisition is an edge held → acquired of the lock graph, labelled with
// the goroutine, the other locks it holds (its gates), and the chain of
// goroutine starts leading to it. A cycle of edges that could all be
// waiting at once is a predicted deadlock:
//
//   - its edges belong to distinct goroutines;
//   - no two of them hold a common gate lock in modes that exclude each
//     other (the gate serializes them);
//   - each acquisition conflicts with the hold it waits for (two readers
//     of an RWMutex do not block each other);
//   - no acquisition happens before the start of another edge's goroutine
//     (vm.ForkPoint: a goroutine blocked before the other started never
//     meets it);
//   - a channel counts as a lock only where its holder released it itself
//     (vm.LockObserver.Commit).
//
// A prediction is never an error: it is a target group for the guided
// search (its acquisitions, each by a distinct goroutine), and only a
// deadlock the search reaches — replayed like any counterexample — is
// reported, with the prediction it came from (CheckResult.Predictions,
// TrialResult.PredictedFrom).

// Monitors selects the runtime monitors of a check (gmc check --monitor).
type Monitors struct {
	// LockGraph runs the lock-graph monitor on every run and guides the
	// search toward each cycle it predicts.
	LockGraph bool
	// Predict runs the predictive race monitor (predict.go) on the runs
	// and guides the search toward each race it predicts.
	Predict bool
}

// Any reports whether some monitor runs.
func (m Monitors) Any() bool { return m.LockGraph || m.Predict }

// Names lists the monitors that run, as --monitor names them.
func (m Monitors) Names() []string {
	var out []string
	if m.LockGraph {
		out = append(out, "lockgraph")
	}
	if m.Predict {
		out = append(out, "predict")
	}
	return out
}

// MonitorNames are the monitors --monitor accepts ("none" turns all off).
var MonitorNames = []string{"lockgraph", "predict"}

// ParseMonitors parses a comma-separated list of monitor names, or
// "none".
func ParseMonitors(s string) (Monitors, error) {
	var m Monitors
	for _, f := range strings.Split(s, ",") {
		switch f = strings.TrimSpace(f); f {
		case "none":
			if s != "none" {
				return m, fmt.Errorf("--monitor: none cannot be combined with other monitors")
			}
		case "lockgraph":
			m.LockGraph = true
		case "predict":
			m.Predict = true
		default:
			return m, fmt.Errorf("--monitor: unknown monitor %q (known: %s, none)", f, strings.Join(MonitorNames, ", "))
		}
	}
	return m, nil
}

// lockEdge is one edge of the lock graph: goroutine g acquired inner
// while holding outer (and gates).
type lockEdge struct {
	g            int
	outer, inner vm.HeldLock
	gates        []vm.HeldLock
	forks        []vm.ForkPoint
	live         bool // an occurrence's channel holds were all committed (lockgraph.real)
	occurrences  int  // occurrences that waited for commits (at most maxOccurrences)
}

// occurrence is an acquisition of an edge that is not live yet: the edge
// becomes live when all of tokens, its channel holds, are committed. An
// occurrence without an edge only has Commit record its token (a gate).
type occurrence struct {
	e      *lockEdge
	tokens []uint64
}

// maxOccurrences bounds the occurrences of one edge that wait for commits
// (a channel handed off in a loop is never committed).
const maxOccurrences = 8

// edgeKey identifies an edge up to the ordering of its acquisition (the
// edge keeps the latest acquisition count seen, the least ordered).
type edgeKey struct {
	g            int
	outer, inner vm.LockID
	outerMode    vm.LockMode
	innerMode    vm.LockMode
	outerAt      loc.Loc
	innerAt      loc.Loc
	gates, forks uint64
}

// Prediction is a lock-order cycle the lock-graph monitor predicts (the
// goroutine of each edge holds Held and waits for the next edge's Held),
// or a race the predictive race monitor predicts (Race, predict.go).
type Prediction struct {
	Cycle []CycleEdge
	Race  *RacePrediction
	// States is the number of states the trial's searches had generated
	// when the monitor predicted the cycle.
	States int
}

// CycleEdge is one goroutine's part of a predicted cycle.
type CycleEdge struct {
	G            int
	HeldAt       loc.Loc // where it acquired the lock it holds
	AcquireAt    loc.Loc // where it waits for the next one
	HeldMode     vm.LockMode
	AcquireMode  vm.LockMode
	HeldLock     vm.LockID
	AcquiredLock vm.LockID
}

// Targets are the cycle's waiting acquisitions: the locations the
// goroutines of the deadlock stand at.
func (p *Prediction) Targets() []loc.Loc {
	if p.Race != nil {
		return []loc.Loc{p.Race.First.At, p.Race.Second.At}
	}
	out := make([]loc.Loc, len(p.Cycle))
	for i, e := range p.Cycle {
		out[i] = e.AcquireAt
	}
	return out
}

// Describe says the cycle in words: "lock held at a.go:10, acquired at
// a.go:11 (goroutine 2); …".
func (p *Prediction) Describe(fset *token.FileSet) string {
	if p.Race != nil {
		return describeRace(fset, p.Race)
	}
	var parts []string
	for _, e := range p.Cycle {
		parts = append(parts, fmt.Sprintf("goroutine %d holds %s (locked at %s) and acquires %s at %s",
			e.G, modeWord(e.HeldMode), e.HeldAt.Position(fset), modeWord(e.AcquireMode), e.AcquireAt.Position(fset)))
	}
	return strings.Join(parts, "; ")
}

func modeWord(m vm.LockMode) string {
	switch m {
	case vm.LockRead:
		return "a read lock"
	case vm.LockChan:
		return "a channel lock"
	}
	return "a lock"
}

// LockGraph is the monitors of one trial: the lock-graph monitor (a
// vm.LockObserver) and, with Monitors.Predict, the predictive race
// monitor (a vm.RunObserver, predict.go), which share the queue of
// predictions.
type LockGraph struct {
	lockGraph  bool // the lock-graph monitor runs
	predicting bool // the predictive race monitor runs
	// the predictive monitor's counts: races predicted, runs and events
	// analyzed
	races        int
	runsAnalyzed int
	analyzed     int64
	// runSigs are the signatures of the runs analyzed (runSignature): a
	// run whose goroutines did what an analyzed run's did, in another
	// interleaving, is not analyzed again
	runSigs   map[uint64]bool
	mu        sync.Mutex
	edges     map[edgeKey]*lockEdge
	from      map[vm.LockID][]*lockEdge // live edges by outer lock
	committed map[uint64]bool
	waiting   map[uint64][]*occurrence // what waits for a token's commit
	preds     []*Prediction
	seen      map[string]bool
	taken     int // predictions handed out by Take
	// states counts the states of the trial's searches (searcher.count)
	states atomic.Int64
	// pending: a prediction not yet taken (Take)
	pending atomic.Bool
}

// NewLockGraph returns an empty lock-graph monitor.
func NewLockGraph() *LockGraph { return NewMonitor(Monitors{LockGraph: true}) }

// NewMonitor returns the empty monitors m selects (nil when none).
func NewMonitor(m Monitors) *LockGraph {
	if !m.Any() {
		return nil
	}
	return &LockGraph{lockGraph: m.LockGraph, predicting: m.Predict, edges: map[edgeKey]*lockEdge{}, from: map[vm.LockID][]*lockEdge{},
		committed: map[uint64]bool{}, waiting: map[uint64][]*occurrence{}, seen: map[string]bool{}, runSigs: map[uint64]bool{}}
}

// maxLockEdges bounds the graph (a program locking in a loop over
// unbounded objects); acquisitions past it add no edges.
const maxLockEdges = 1 << 16

// Acquire records an acquisition (vm.LockObserver).
func (lg *LockGraph) Acquire(a vm.LockAcquire) {
	if len(a.Held) == 0 || a.Try {
		return // a TryLock never waits: it is no edge's waiting end
	}
	lg.mu.Lock()
	defer lg.mu.Unlock()
	forks := forkSig(a.Forks)
	for i, h := range a.Held {
		if h.Lock == a.Lock.Lock {
			continue // a recursive read lock, or the same channel
		}
		k := edgeKey{g: a.G, outer: h.Lock, inner: a.Lock.Lock, outerMode: h.Mode, innerMode: a.Lock.Mode,
			outerAt: h.At, innerAt: a.Lock.At, gates: gateSig(a.Held, i), forks: forks}
		if e, ok := lg.edges[k]; ok {
			if a.Lock.Seq > e.inner.Seq {
				e.inner.Seq = a.Lock.Seq
				if e.live {
					lg.cycles(e)
				}
			}
			if !e.live {
				lg.occur(e, h, a.Lock)
			}
			continue
		}
		if len(lg.edges) >= maxLockEdges {
			return
		}
		e := &lockEdge{g: a.G, outer: h, inner: a.Lock, forks: a.Forks}
		for j, x := range a.Held {
			if j != i {
				e.gates = append(e.gates, x)
				if x.Token != 0 {
					lg.waiting[x.Token] = append(lg.waiting[x.Token], &occurrence{}) // (a gate only once committed: real)
				}
			}
		}
		lg.edges[k] = e
		lg.occur(e, h, a.Lock)
	}
}

// occur records an occurrence of edge e (not live) with outer hold h and
// inner acquisition in: e becomes live now, or once its channel holds are
// committed.
func (lg *LockGraph) occur(e *lockEdge, h, in vm.HeldLock) {
	var ts []uint64
	for _, t := range []uint64{h.Token, in.Token} {
		if t != 0 {
			ts = append(ts, t)
		}
	}
	if len(ts) == 0 {
		lg.enliven(e)
		return
	}
	if e.occurrences >= maxOccurrences {
		return
	}
	e.occurrences++
	o := &occurrence{e: e, tokens: ts}
	for _, t := range ts {
		lg.waiting[t] = append(lg.waiting[t], o)
	}
}

// Commit records that a channel hold was a lock hold (vm.LockObserver).
func (lg *LockGraph) Commit(token uint64) {
	lg.mu.Lock()
	defer lg.mu.Unlock()
	// Only the tokens of edges are recorded (a channel hold is still held,
	// so not committed, when an edge names it): the map stays as small as
	// the graph however often a channel lock is taken.
	es, ok := lg.waiting[token]
	if !ok {
		return
	}
	lg.committed[token] = true
	for _, o := range es {
		if o.e != nil && !o.e.live && lg.allCommitted(o.tokens) {
			lg.enliven(o.e)
		}
	}
	delete(lg.waiting, token)
}

func (lg *LockGraph) allCommitted(ts []uint64) bool {
	for _, t := range ts {
		if !lg.committed[t] {
			return false
		}
	}
	return true
}

// enliven adds e to the graph and looks for the cycles through it.
func (lg *LockGraph) enliven(e *lockEdge) {
	e.live = true
	lg.from[e.outer.Lock] = append(lg.from[e.outer.Lock], e)
	lg.cycles(e)
}

// cycles looks for the cycles of two and three edges through e.
func (lg *LockGraph) cycles(e *lockEdge) {
	start, mid := e.outer.Lock, e.inner.Lock
	for _, f := range lg.from[mid] {
		if !lg.compatible(e, f) {
			continue
		}
		if f.inner.Lock == start {
			if lg.compatible(f, e) {
				lg.predict([]*lockEdge{e, f})
			}
			continue
		}
		for _, h := range lg.from[f.inner.Lock] {
			if h.inner.Lock == start && h.outer.Lock != mid && lg.compatible(f, h) && lg.compatible(h, e) &&
				lg.apart(e, h) {
				lg.predict([]*lockEdge{e, f, h})
			}
		}
	}
}

// compatible reports whether a's goroutine can wait for b's held lock
// while b's goroutine holds it, with both edges pending at once.
func (lg *LockGraph) compatible(a, b *lockEdge) bool {
	return a.inner.Lock == b.outer.Lock && b.outer.Mode.Excludes(a.inner.Mode) && lg.apart(a, b)
}

// apart reports whether edges a and b (of a cycle) can be pending at
// once: distinct goroutines, no common gate, neither waiting acquisition
// before the start of the other's goroutine.
func (lg *LockGraph) apart(a, b *lockEdge) bool {
	if a.g == b.g {
		return false
	}
	for _, x := range a.gates {
		for _, y := range b.gates {
			if x.Lock == y.Lock && x.Mode.Excludes(y.Mode) && lg.real(x) && lg.real(y) {
				return false
			}
		}
	}
	return !startsAfter(a, b) && !startsAfter(b, a)
}

// real reports whether a held lock is a lock (a channel hold only once
// committed).
func (lg *LockGraph) real(h vm.HeldLock) bool {
	return h.Token == 0 || lg.committed[h.Token]
}

// startsAfter reports whether b's goroutine was started (through its
// chain of ancestors) after a's goroutine made a's waiting acquisition.
func startsAfter(a, b *lockEdge) bool {
	for _, f := range b.forks {
		if f.G == a.g && a.inner.Seq < f.Seq {
			return true
		}
	}
	return false
}

// predict records the cycle es (once per set of waiting locations).
func (lg *LockGraph) predict(es []*lockEdge) {
	p := &Prediction{}
	for _, e := range es {
		p.Cycle = append(p.Cycle, CycleEdge{G: e.g, HeldAt: e.outer.At, AcquireAt: e.inner.At,
			HeldMode: e.outer.Mode, AcquireMode: e.inner.Mode, HeldLock: e.outer.Lock, AcquiredLock: e.inner.Lock})
	}
	keys := make([]string, len(p.Cycle))
	for i, c := range p.Cycle {
		keys[i] = c.AcquireAt.String()
	}
	sort.Strings(keys)
	k := strings.Join(keys, "|")
	if lg.seen[k] {
		return
	}
	lg.seen[k] = true
	p.States = int(lg.states.Load())
	lg.preds = append(lg.preds, p)
	lg.pending.Store(true)
}

// Take returns the predictions made since the last Take.
func (lg *LockGraph) Take() []*Prediction {
	lg.mu.Lock()
	defer lg.mu.Unlock()
	out := lg.preds[lg.taken:]
	lg.taken = len(lg.preds)
	lg.pending.Store(false)
	return out
}

// Predictions returns every prediction so far.
func (lg *LockGraph) Predictions() []*Prediction {
	lg.mu.Lock()
	defer lg.mu.Unlock()
	return append([]*Prediction(nil), lg.preds...)
}

// gateSig hashes the locks of held other than the i-th.
func gateSig(held []vm.HeldLock, i int) uint64 {
	h := uint64(14695981039346656037)
	for j, x := range held {
		if j == i {
			continue
		}
		for _, v := range []uint64{uint64(x.Lock.Obj), uint64(x.Lock.Off), uint64(x.Mode)} {
			h = (h ^ v) * 1099511628211
		}
	}
	return h
}

// forkSig hashes a chain of starts.
func forkSig(fs []vm.ForkPoint) uint64 {
	h := uint64(14695981039346656037)
	for _, f := range fs {
		h = (h ^ uint64(f.G)) * 1099511628211
		h = (h ^ uint64(f.Seq)) * 1099511628211
	}
	return h
}

// observer returns lg as a vm.LockObserver (nil when lg is).
func (lg *LockGraph) observer() vm.LockObserver {
	if lg == nil {
		return nil
	}
	return lg
}

// annotate sets the trial's predictions and, when its error is a deadlock
// that shows one of them, the prediction it came from.
func (lg *LockGraph) annotate(prog *load.Program, tr TrialResult) TrialResult {
	if lg == nil {
		return tr
	}
	tr.Predictions = lg.Predictions()
	if debugOn && lg.predicting {
		runs, evs := lg.MonitorStats()
		fmt.Fprintf(os.Stderr, "gmc: predict: %d runs, %d events analyzed; %d races predicted; %d states\n", runs, evs, lg.races, lg.states.Load())
	}
	if tr.Result.Verdict != VerdictError || tr.Result.Final == nil {
		return tr
	}
	if e := tr.Result.Final.Err(); e != nil {
		tr.PredictedFrom = PredictionShown(prog.Fset, tr.Predictions, e)
	}
	return tr
}

// PredictionShown returns the first of preds that error e shows: e is a
// blocking error (deadlock, leak, hang) and a goroutine of it stands at
// each of the cycle's waiting acquisitions (nil when none).
func PredictionShown(fset *token.FileSet, preds []*Prediction, e *vm.Error) *Prediction {
	for _, p := range preds {
		if p.Race != nil {
			if raceShown(fset, p.Race, e) {
				return p
			}
			continue
		}
		w := &Warning{Check: "lockgraph", Targets: p.Targets(), Show: blocking}
		if shows(fset, w, e) {
			return p
		}
	}
	return nil
}

// predictedSets returns the abstract trace sets toward prediction p's
// acquisitions from entry e (none when the abstract system cannot be
// built, e.g. an acquisition in code the entry does not reach
// statically). It builds what a plan made without trace sets lacks.
func (pl *plan) predictedSets(prog *load.Program, e vm.Entry, p *Prediction) []abstract.TraceSet {
	pl.mu.Lock()
	if pl.sp == nil {
		pl.sp = slice.New(prog.SSA)
	}
	if pl.dist == nil {
		pl.dist = heuristics.NewPFSM(pl.sp)
	}
	if pl.ref == nil {
		pl.ref = refine.New(prog.SSA, []*ssa.Function{e.Fn})
	}
	sp := pl.sp
	pl.mu.Unlock()
	targets := p.Targets()
	for _, t := range targets {
		if !t.Valid() {
			return nil // an acquisition outside any function's code (a native's continuation)
		}
	}
	sys, err := abstract.Build(sp, abstract.Config{Targets: targets, Entries: []*ssa.Function{e.Fn}})
	if err != nil {
		return nil
	}
	return sys.TraceSets(abstract.Limits{Sets: predictedSetsPer})
}

// distance returns the plan's distance estimate.
func (pl *plan) distance() heuristics.Distance {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	return pl.dist
}

// predictedSetsPer bounds the abstract trace sets of one prediction.
var predictedSetsPer = 1
