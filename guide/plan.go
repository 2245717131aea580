package guide

// This file holds the plan of a guided check: the static part its trials
// share (the slice of the program, the abstract trace sets toward the
// targets, the distance tables), how it is made, and the machines with
// each trace set's breakpoints.

import (
	"context"
	"sync"

	"github.com/gmc-go/gmc/abstract"
	"github.com/gmc-go/gmc/abstract/warn"
	"github.com/gmc-go/gmc/heuristics"
	"github.com/gmc-go/gmc/refine"
	"github.com/gmc-go/gmc/slice"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/ssa"
)

// plan is the static part of a guided check, shared by its trials.
type plan struct {
	sp     *slice.Program // (nil when the plan was not built in time: predictedSets builds one)
	sets   []abstract.TraceSet
	goal   bool
	dist   heuristics.Distance
	ref    *refine.Refiner // refines the sets when the search stalls (its own slices, built on first use)
	mu     sync.Mutex
	cache  map[int]*vm.Machine
	walkMs []*vm.Machine // the machines of the fallback's walks after the plain one (fallback.go)
}

// makePlan computes the abstract trace sets to follow; once ctx is done it
// builds no more of them, and stops the one it is building.
func makePlan(ctx context.Context, prog *load.Program, cfg CheckConfig) (*plan, error) {
	sp := slice.New(prog.SSA)
	entries := []*ssa.Function{cfg.Entry.Fn}
	var groups [][]loc.Loc
	goal := false
	if len(cfg.Targets) > 0 {
		groups = append(groups, cfg.Targets)
		goal = true
	} else if len(cfg.Guides) > 0 {
		groups = append(groups, cfg.Guides...)
	} else if cfg.Auto {
		ws, ok := warningsWithin(ctx, prog, sp)
		if !ok {
			return &plan{sp: sp, cache: map[int]*vm.Machine{}, ref: refine.New(prog.SSA, entries)}, nil
		}
		for _, w := range ws {
			if len(w.Targets) > 0 {
				groups = append(groups, w.Targets)
			}
		}
		for _, s := range abstract.PanicSites(prog, false) {
			groups = append(groups, []loc.Loc{s.Loc})
		}
		if cfg.Options.Checks.Leak && len(groups) == 0 {
			groups = blockingGroups(prog, sp, cfg.Entry.Fn, groups)
		}
	}
	pl := &plan{sp: sp, goal: goal, cache: map[int]*vm.Machine{}, ref: refine.New(prog.SSA, entries)}
	switch cfg.Heuristic {
	case heuristics.SecFSM:
		pl.dist = heuristics.NewFSM(sp)
	default:
		pl.dist = heuristics.NewPFSM(sp)
	}
	for _, g := range groups {
		if ctx.Err() != nil {
			break
		}
		sys, err := abstract.Build(sp, abstract.Config{Targets: g, Entries: entries, Stop: ctx.Done()})
		if err == abstract.ErrStopped {
			break
		}
		if err != nil {
			if len(cfg.Targets) > 0 {
				return nil, err
			}
			continue
		}
		sets := sys.TraceSets(abstract.Limits{Sets: 2 * len(g)}) // more combinations for more targets
		pl.sets = append(pl.sets, sets...)
	}
	return pl, nil
}

// warningsWithin is warn.Run, given up (ok false) when ctx is done first:
// the warnings are made once per program, by the first plan that asks for
// them, and the plans of the next entries do not wait for them past their
// time (the run goes on for the entries after those).
func warningsWithin(ctx context.Context, prog *load.Program, sp *slice.Program) (ws []warn.Warning, ok bool) {
	ch := make(chan []warn.Warning, 1)
	go func() { ch <- warn.Run(prog, sp) }()
	select {
	case ws := <-ch:
		return ws, true
	case <-ctx.Done():
		return nil, false
	}
}

// maxBlockingTargets bounds the blocking operations a leak check guides
// toward (each is a trace set of its own; more would delay the fallback).
const maxBlockingTargets = 4

// blockingGroups returns target groups for the blocking operations where
// a goroutine the entry starts may leak (abstract.BlockingSites) that no
// other group targets, at most maxBlockingTargets. makePlan uses them only
// when no warning or panic site guides the search: on the GoKer campaign,
// adding them to the warnings' sets found no more kernels and doubled the
// states of those the fallback finds (each set runs before the fallback).
func blockingGroups(prog *load.Program, sp *slice.Program, entry *ssa.Function, groups [][]loc.Loc) [][]loc.Loc {
	targeted := map[loc.Loc]bool{}
	for _, g := range groups {
		for _, l := range g {
			targeted[l] = true
		}
	}
	var out [][]loc.Loc
	for _, s := range abstract.BlockingSites(prog, sp, entry) {
		if len(out) == maxBlockingTargets {
			break
		}
		if !targeted[s.Loc] {
			out = append(out, []loc.Loc{s.Loc})
		}
	}
	return out
}

// machineFor returns the machine with the breakpoints of trace set i.
func (pl *plan) machineFor(prog *load.Program, opts vm.Options, i int, meta *heuristics.Meta) *vm.Machine {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if m, ok := pl.cache[i]; ok {
		return m
	}
	o := opts
	o.Breakpoints = meta.Breakpoints()
	m := vm.New(prog, o)
	pl.cache[i] = m
	return m
}
