package guide

import (
	"fmt"
	"go/token"
	"unsafe"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/loc"
)

// This file holds the predictive race monitor (gmc check --monitor
// predict): the VM hands it the event log of every run of a check that
// ends (vm.RunObserver), and it computes the races a correct reordering
// of the run would expose (weak causal precedence, wcp.go). The observed
// run itself has no happens-before race (the VM would have reported it),
// so each is a race beyond happens-before. As the lock-graph monitor's
// cycles, a predicted race is never an error: its two accesses become a
// target group for the guided search, which looks for an execution
// where two goroutines stand at them at once and the happens-before
// detector sees them race; only such a race, replayed like any
// counterexample, is reported, with the prediction it came from
// (TrialResult.PredictedFrom). The monitor shares the lock-graph
// monitor's queue of predictions (LockGraph.Take).
//
// Its cost is bounded: a run is analyzed only when its signature
// (runSignature: what each goroutine did, whatever the interleaving) is
// not one of an analyzed run — the random walks of a search end many
// runs that differ only in their interleaving, whose analyses would
// predict the same races — and only while the events analyzed stay
// within predictEventsPerState per state the trial generated (plus
// predictFreeEvents), so that a search of many similar runs pays for a
// few.

// RacePrediction is a race the predictive monitor predicts: two accesses
// of distinct goroutines, at least one a write, that no synchronization
// a reordering must keep orders.
type RacePrediction struct {
	First, Second RaceAccess
}

const (
	// predictEventsPerState and predictFreeEvents bound the events the
	// monitor analyzes (see the file comment). At 8 and 2^15, without
	// the signatures, the monitor measured +12 % of a stateful DFS's
	// instructions and +54 % of random walks' on abslist_fixed
	// (benchmarks/predict_cost.sh; RESULTS.md, sessions 9 and 10); the
	// races it predicts show in the first runs, which the free events
	// cover.
	predictEventsPerState = 2
	predictFreeEvents     = 1 << 13
	// maxRacesPerRun bounds the races one run's analysis reports;
	// maxRacePredictions the race predictions of a trial (each is a
	// target group the guided search spends its rounds on).
	maxRacesPerRun     = 16
	maxRacePredictions = 16
)

// RunEnded analyzes the log of a run that ended (vm.RunObserver).
func (lg *LockGraph) RunEnded(log vm.EventLog, err *vm.Error) {
	if err != nil && err.Kind == vm.KindRace {
		return // a race is found: the trial reports it
	}
	sig := runSignature(log.Backward)
	lg.mu.Lock()
	budget := predictFreeEvents + predictEventsPerState*lg.states.Load()
	n := int64(log.Len())
	if lg.races >= maxRacePredictions || lg.analyzed+n > budget || lg.runSigs[sig] {
		lg.mu.Unlock()
		return
	}
	lg.runSigs[sig] = true
	lg.analyzed += n
	lg.runsAnalyzed++
	lg.mu.Unlock()
	found := wcpLogRaces(log, maxRacesPerRun)
	if len(found) == 0 {
		return
	}
	lg.mu.Lock()
	defer lg.mu.Unlock()
	for _, r := range found {
		if lg.races >= maxRacePredictions {
			return
		}
		a, b := r[0].At.String(), r[1].At.String()
		if b < a {
			a, b = b, a
		}
		k := "race|" + a + "|" + b
		if lg.seen[k] {
			continue
		}
		lg.seen[k] = true
		lg.races++
		// (not pending: a race prediction does not interrupt the search
		// under way, the early bounded search above all, which finds a
		// small program's races sooner than a wait for the plan the
		// prediction's search needs; the trial takes it at its next poll)
		lg.preds = append(lg.preds, &Prediction{Race: &RacePrediction{First: r[0], Second: r[1]}, States: int(lg.states.Load())})
	}
}

// describeRace says a predicted race in words.
func describeRace(fset *token.FileSet, r *RacePrediction) string {
	return fmt.Sprintf("%s by goroutine %d at %s and %s by goroutine %d at %s, ordered by no synchronization a reordering keeps",
		accessWord(r.First.Write), r.First.G, r.First.At.Position(fset), accessWord(r.Second.Write), r.Second.G, r.Second.At.Position(fset))
}

func accessWord(write bool) string {
	if write {
		return "a write"
	}
	return "a read"
}

// raceShown reports whether e is a race between accesses on the lines of
// r's two accesses.
func raceShown(fset *token.FileSet, r *RacePrediction, e *vm.Error) bool {
	if e.Kind != vm.KindRace || len(e.Goroutines) < 2 {
		return false
	}
	a, b := e.Goroutines[0].Loc, e.Goroutines[1].Loc
	x, y := []loc.Loc{r.First.At}, []loc.Loc{r.Second.At}
	return lineIn(fset, a, x) && lineIn(fset, b, y) || lineIn(fset, a, y) && lineIn(fset, b, x)
}

// MonitorStats are the predictive monitor's counts (RESULTS.md's cost
// figures): runs and events analyzed.
func (lg *LockGraph) MonitorStats() (runs int, events int64) {
	lg.mu.Lock()
	defer lg.mu.Unlock()
	return lg.runsAnalyzed, lg.analyzed
}

// runSignature returns a hash of what each goroutine of a run did: for
// each goroutine the set of its events' kinds, lock modes and locations
// (a 1,024-bit Bloom filter of them), summed over the goroutines. It does
// not depend on how the goroutines interleaved, on how many times a loop
// ran, nor on goroutine and object ids: two runs with the same signature
// made the same kinds of accesses and synchronizations at the same
// places, in the same numbers of goroutines, and the analysis of the
// second would mostly predict the first's races again.
func runSignature(events func(func(*vm.Event) bool)) uint64 {
	type gset struct {
		g    int32
		bits [16]uint64
	}
	var buf [16]gset
	per := buf[:0]
	last := -1
	events(func(e *vm.Event) bool {
		x := uint64(e.Kind) | uint64(e.Mode)<<8 | uint64(e.At.Block)<<16 | uint64(e.At.Index)<<40
		x ^= uint64(uintptr(unsafe.Pointer(e.At.Fn)))
		x *= 0x9e3779b97f4a7c15
		k := last
		if k < 0 || per[k].g != e.G {
			k = -1
			for i := range per {
				if per[i].g == e.G {
					k = i
					break
				}
			}
			if k < 0 {
				k = len(per)
				per = append(per, gset{g: e.G})
			}
			last = k
		}
		b := x >> 54
		per[k].bits[b>>6] |= 1 << (b & 63)
		return true
	})
	var sig uint64
	for _, p := range per {
		h := uint64(0xcbf29ce484222325)
		for _, w := range p.bits {
			h = (h ^ w) * 0x100000001b3
			h ^= h >> 29
		}
		h *= 0xbf58476d1ce4e5b9
		sig += h ^ h>>31
	}
	return sig
}
