package guide

import (
	"context"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/gmc-go/gmc/heuristics"
	"github.com/gmc-go/gmc/vm"
)

// Strategy names a search strategy (the --strategy values).
type Strategy string

const (
	Guided     Strategy = "guided"
	DFS        Strategy = "dfs"
	RDFS       Strategy = "rdfs"
	Random     Strategy = "random"
	BFS        Strategy = "bfs"
	Exhaustive Strategy = "exhaustive"
	// DPOR is source-DPOR with sleep sets (dpor.go): stateless, every
	// Mazurkiewicz trace explored once; no-error only when it ends.
	DPOR Strategy = "dpor"
)

// Strategies lists the valid strategies.
var Strategies = []Strategy{Guided, DFS, RDFS, Random, BFS, Exhaustive, DPOR}

// Ranker, RankState and Stall are the heuristic interface of the guided
// search; implementations live in package heuristics.
type (
	Ranker    = heuristics.Ranker
	RankState = heuristics.Rank
	Stall     = heuristics.Stall
)

// Config configures a search.
type Config struct {
	Strategy     Strategy
	Seed         uint64
	MaxDepth     int           // transitions along one path (0: 100,000)
	MaxStates    int           // states generated (0: unbounded)
	MaxBacktrack int           // capacity of the guided backtrack set (0: 100,000)
	TimeLimit    time.Duration // 0: unbounded
	Ranker       Ranker        // guided search only
	// StopOnStall makes a guided search return at the first stall (for refinement).
	StopOnStall bool
	// Eager makes the guided search run every successor of a state before
	// it ranks them (the seed's); otherwise, with a ranker that estimates
	// choices (heuristics.Estimator), it runs the best-estimated choice
	// and the others only when it backtracks to them.
	Eager bool
	// Progress, if set, is called about once a second.
	Progress func(Progress)
	// Locks, if set, observes the lock acquisitions of every run (the
	// lock-graph monitor, lockgraph.go).
	Locks vm.LockObserver
	// NoSymmetry makes the exhaustive searches explore the choices of
	// every twin (symmetric.go), for comparisons.
	NoSymmetry bool
}

// Progress is a snapshot of a running search.
type Progress struct {
	States    int
	Depth     int
	Rate      float64 // states per second
	BestLevel int
	Elapsed   time.Duration
}

// Verdicts.
const (
	VerdictError   = "error"
	VerdictNoError = "no-error"
	VerdictUnknown = "unknown"
	// VerdictSkip is a check's verdict on a test that skipped in every
	// execution explored, none with an error (CheckResult.Skipped).
	VerdictSkip = "skip"
)

// Stats count the work of a search.
type Stats struct {
	States       int // states generated (successors computed)
	Transitions  int // transitions executed
	Instructions int64
	Backtracks   int
	Executions   int // maximal paths of the exhaustive searches (ended, merged, or every transition asleep)
	Refinements  int
	Restarts     int           // guided searches started again from the initial state after a refinement (check.go)
	SolverCalls  int           // satisfiability checks of symbolic runs
	SolverTime   time.Duration // time spent in them
	MaxDepth     int
	BestLevel    int // the most abstract-trace locations matched on one path (guided search)
	Time         time.Duration
	PeakMem      uint64
}

// Result is the outcome of a search.
type Result struct {
	Verdict string
	Final   *vm.State // the error (or goal) state, nil otherwise
	Choices []int     // the path from the initial state to Final
	Goal    bool      // Final reached every target (no error)
	// A no-error verdict holds either for the whole space (Exhausted) or
	// for every schedule with at most Preemptions preemptions.
	Exhausted   bool
	Preemptions int
	Stall       *Stall // set when StopOnStall ended the search
	Stats       Stats
}

// pathNode links a state to its parent choice (to rebuild counterexamples).
type pathNode struct {
	parent *pathNode
	choice int
	depth  int
	// data is the guided search's per-path rank data of the transition
	// (heuristics.Rank.Data), kept to rank the path again after a
	// refinement (greedy.go, guided.rebase)
	data any
}

func (p *pathNode) choices() []int {
	var out []int
	for n := p; n != nil && n.parent != nil; n = n.parent {
		out = append(out, n.choice)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

func (p *pathNode) child(c int) *pathNode {
	d := 0
	if p != nil {
		d = p.depth + 1
	}
	return &pathNode{parent: p, choice: c, depth: d}
}

// searcher holds what every strategy shares.
type searcher struct {
	ctx      context.Context
	m        *vm.Machine
	cfg      Config
	rng      *rand.Rand
	gids     []int32 // random walks: the goroutine of each choice (reused)
	start    time.Time
	stats    Stats
	lastProg time.Time
	// polls counts the calls of stop: the clock is read every
	// stopPoll-th call (and every 256th state), not at each
	polls uint32
	// polledAt is stats.Instructions when stop last read the clock
	polledAt int64
	best     int
	bounded  bool // some bound pruned the space (no "no-error")
	limitHit bool // a limit of states or time stopped the last sub-search
	// cut: a transition ran past the time limit and was cut there
	// (vm.State.Cut): the search stops and reports nothing from it
	cut bool
	// count, when set, counts the states of every search of a trial (the
	// lock-graph monitor's, cfg.Locks, dates its predictions by it)
	count *atomic.Int64
	// interrupt, when set, pauses a resumable search (resumable.over)
	// while it holds a prediction the trial has not taken
	interrupt *LockGraph
	// turnEnd, when set, pauses a resumable search (resumable.over) once
	// the time passes it: the end of a turn whose time is capped
	// (share.go, turnCap)
	turnEnd time.Time
	// twinsLeft counts the choices the exhaustive searches left out as
	// alike choices of a twin (symmetric.go)
	twinsLeft int
}

func newSearcher(ctx context.Context, m *vm.Machine, cfg Config) *searcher {
	if cfg.MaxDepth <= 0 {
		cfg.MaxDepth = 100000
	}
	if cfg.MaxBacktrack <= 0 {
		cfg.MaxBacktrack = 100000
	}
	se := &searcher{ctx: ctx, m: m, cfg: cfg, start: time.Now(),
		rng: rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x5851f42d4c957f2d))}
	if lg, ok := cfg.Locks.(*LockGraph); ok {
		se.count = &lg.states
	}
	return se
}

// step computes a successor and counts it.
func (se *searcher) step(s *vm.State, i int) *vm.State {
	return se.stepped(s, se.m.StepWithin(s, i, se.deadline()))
}

// deadline is the wall-clock time (Unix ns) at which the search's time
// limit cuts a transition that is still running (vm.Machine.StepWithin;
// 0: no limit).
func (se *searcher) deadline() int64 {
	if se.cfg.TimeLimit <= 0 {
		return 0
	}
	return se.start.Add(se.cfg.TimeLimit).UnixNano()
}

// stepAmong is step for a walk that holds gids, s's choice goroutines
// (vm.Machine.StepAmong).
func (se *searcher) stepAmong(s *vm.State, i int, gids []int32) *vm.State {
	return se.stepped(s, se.m.StepAmongWithin(s, i, gids, se.deadline()))
}

// inPlace lets the searches step the states they drop in place
// (stepInPlace; off in a test that compares).
var inPlace = true

// stepInPlace is step for a search that drops s and every state made
// from it (a chain of single successors): the transition may be made in s
// itself (vm's StepInPlace).
func (se *searcher) stepInPlace(s *vm.State, i int) *vm.State {
	if !inPlace {
		return se.step(s, i)
	}
	instrs := s.Instructions()
	n := se.m.StepInPlace(s, i, se.deadline())
	se.count1(n, instrs)
	return n
}

// stepLink steps s, a state the search drops once it has its successor
// (a link of a chain, a walk's state): in place when the search owns it
// (own: nothing else holds it; the successor is always its own).
func (se *searcher) stepLink(s *vm.State, i int, own bool) *vm.State {
	if own {
		return se.stepInPlace(s, i)
	}
	return se.step(s, i)
}

// stepAmongInPlace is stepAmong for a search that drops s (a walk's
// run), as stepInPlace is step's.
func (se *searcher) stepAmongInPlace(s *vm.State, i int, gids []int32) *vm.State {
	if !inPlace {
		return se.stepAmong(s, i, gids)
	}
	instrs := s.Instructions()
	n := se.m.StepAmongInPlace(s, i, gids, se.deadline())
	se.count1(n, instrs)
	return n
}

// interrupted reports whether the search is to pause for a new
// prediction (see interrupt).
func (se *searcher) interrupted() bool {
	return se.interrupt != nil && se.interrupt.pending.Load()
}

// turnOver reports whether the time of the search's current turn
// (turnEnd) has passed.
func (se *searcher) turnOver() bool {
	return !se.turnEnd.IsZero() && time.Now().After(se.turnEnd)
}

// capTurn sets the end of the search's turn to d from now (0: no end).
func (se *searcher) capTurn(d time.Duration) {
	se.turnEnd = time.Time{}
	if d > 0 {
		se.turnEnd = time.Now().Add(d)
	}
}

// stepped counts the transition from s to n.
func (se *searcher) stepped(s, n *vm.State) *vm.State {
	se.count1(n, s.Instructions())
	return n
}

// count1 counts a transition to n from a state of instrs instructions.
func (se *searcher) count1(n *vm.State, instrs int64) {
	if n.Cut() {
		se.cut = true // (stop says so at once)
	}
	se.stats.States++
	if se.count != nil {
		se.count.Add(1)
	}
	se.stats.Transitions++
	se.stats.Instructions += n.Instructions() - instrs
	if d := n.Depth(); d > se.stats.MaxDepth {
		se.stats.MaxDepth = d
	}
}

// stopPoll: stop reads the clock at least every stopPoll calls (a
// search's transitions take microseconds; reading the clock at each took
// 3–7 % of a stateful DFS), and whenever stopInstrs instructions ran since
// it last did: a transition of a long computation runs up to 2^21
// instructions (vm's maxInstrs), about 0.3 s, so 16 of them overshot a
// 10 s limit by 3–4 s (shopspring/decimal's TestDecimal_Ln: 13.0 s).
const (
	stopPoll   = 16
	stopInstrs = 200_000
)

// stop reports whether a time, state or cancellation bound is reached.
func (se *searcher) stop(depth int) bool {
	if se.cut {
		return true
	}
	se.polls++
	if se.stats.States&255 == 0 || se.polls%stopPoll == 0 || se.stats.Instructions-se.polledAt >= stopInstrs {
		se.polledAt = se.stats.Instructions
		now := time.Now()
		if se.cfg.Progress != nil && now.Sub(se.lastProg) >= time.Second {
			el := now.Sub(se.start)
			se.cfg.Progress(Progress{States: se.stats.States, Depth: depth, BestLevel: se.best,
				Rate: float64(se.stats.States) / el.Seconds(), Elapsed: el})
			se.lastProg = now
		}
		if se.cfg.TimeLimit > 0 && now.Sub(se.start) > se.cfg.TimeLimit {
			return true
		}
		if se.ctx.Err() != nil {
			return true
		}
	}
	return se.cfg.MaxStates > 0 && se.stats.States >= se.cfg.MaxStates
}

// outOfBudget reports whether the time, state or cancellation bound of
// the whole search is reached.
func (se *searcher) outOfBudget() bool {
	return se.cut || se.ctx.Err() != nil || (se.cfg.TimeLimit > 0 && time.Since(se.start) > se.cfg.TimeLimit) ||
		(se.cfg.MaxStates > 0 && se.stats.States >= se.cfg.MaxStates)
}

// isError reports whether s is an error state the search reports.
func isError(s *vm.State) bool { return s.Err() != nil }

func (se *searcher) result(verdict string, final *vm.State, path *pathNode) Result {
	se.stats.Time = time.Since(se.start)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	se.stats.PeakMem = ms.Sys
	se.stats.BestLevel = se.best
	r := Result{Verdict: verdict, Final: final, Stats: se.stats}
	if path != nil {
		r.Choices = path.choices()
	}
	return r
}

// startObserved returns the initial state of a run of e on m, observed by
// locks (when not nil).
func startObserved(m *vm.Machine, e vm.Entry, locks vm.LockObserver) *vm.State {
	s := m.Start(e)
	if lg, ok := locks.(*LockGraph); ok {
		if lg.lockGraph {
			s.SetLockObserver(lg)
		}
		if lg.predicting {
			s.SetRunObserver(lg)
		}
	} else if locks != nil {
		s.SetLockObserver(locks)
	}
	return s
}

// Search runs one search of entry e under the configuration.
func Search(ctx context.Context, m *vm.Machine, e vm.Entry, cfg Config) Result {
	se := newSearcher(ctx, m, cfg)
	root := startObserved(m, e, cfg.Locks)
	var r Result
	switch cfg.Strategy {
	case Guided:
		r = se.greedy(root)
	case DFS:
		r = se.dfs(root, false)
	case RDFS:
		r = se.dfs(root, true)
	case BFS:
		r = se.bfs(root)
	case Random:
		r = se.randomWalk(root)
	case Exhaustive:
		r = se.iterated(root)
	case DPOR:
		r = se.dpor(root, 0)
	default:
		r = se.result(VerdictUnknown, nil, nil)
	}
	if r.Verdict == VerdictNoError && cfg.Strategy != Exhaustive {
		r.Exhausted = true // dfs, bfs, dpor: every reachable state (dpor: every Mazurkiewicz trace) explored
	}
	// every state of the search descends from root and shares its solver
	r.Stats.SolverCalls, r.Stats.SolverTime = root.SolverStats()
	return r
}
