package vm

import (
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/gmc-go/gmc/vm/load"
)

// TestHashCaches: what the state hash caches in goroutines (gsum) and
// objects (raceView, hcache) is what a fresh computation gives, at every
// state of random runs with the race detector on, and a state hashes the
// same with every cache dropped (and the roots' closure walked afresh,
// hash_roots.go). A cache that a goroutine's or object's
// copy for writing kept would differ (checked by removing the resets).
func TestHashCaches(t *testing.T) {
	sums, views := 0, 0
	for _, prog := range []string{"symmetry", "philosophers", "race/mutex", "race/chanhandoff", "race/waitgroup", "spin", "tickhang"} {
		p, err := load.Load(load.Config{Dir: filepath.Join("testdata", prog)})
		if err != nil {
			t.Fatal(err)
		}
		m := New(p, Options{Checks: Checks{Race: true, Leak: true}})
		e, err := m.FindEntry("")
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(1); seed <= 3; seed++ {
			rng := rand.New(rand.NewPCG(seed, 7))
			var run []*State
			s := m.Start(e)
			for d := 0; d < 300; d++ {
				s.Hash()
				run = append(run, s)
				cs := s.Choices()
				if len(cs) == 0 {
					break
				}
				s = m.Step(s, rng.IntN(len(cs)))
			}
			for d, s := range run {
				a, b := checkHashCaches(t, prog, d, s)
				sums, views = sums+a, views+b
			}
		}
	}
	if sums < 100 || views < 100 {
		t.Errorf("%d cached summaries and %d cached race views checked, want at least 100 each", sums, views)
	}
}

// checkHashCaches checks the caches of state s and returns how many
// summaries and race views it found cached.
func checkHashCaches(t *testing.T, prog string, depth int, s *State) (sums, views int) {
	t.Helper()
	for g := range s.gs.all() {
		p := atomic.LoadPointer(&g.sum)
		if p == nil {
			continue
		}
		sums++
		c := *g
		c.sum, c.epoch = nil, s.epoch // computed afresh, not stored
		if fresh := s.summary(&c); !reflect.DeepEqual(fresh, (*gsum)(p)) {
			t.Fatalf("%s at depth %d: goroutine %d's cached summary %+v, fresh %+v", prog, depth, g.id, *(*gsum)(p), *fresh)
		}
	}
	var objs []*Object
	for ci := range s.heap.numChunks() {
		c := s.heap.chunk(ci)
		if c == nil {
			continue
		}
		for _, o := range c.objs {
			if o == nil {
				continue
			}
			objs = append(objs, o)
			p := atomic.LoadPointer(&o.race)
			if p == nil {
				continue
			}
			views++
			c := *o
			c.race, c.epoch = nil, s.epoch
			if fresh := s.raceView(&c); !reflect.DeepEqual(fresh, (*raceView)(p)) {
				t.Fatalf("%s at depth %d: an object's cached race view differs from a fresh one", prog, depth)
			}
		}
	}
	// the whole hash with every cache dropped (the caches of the state's
	// goroutines and objects come back as it is hashed again)
	want := s.Hash()
	for g := range s.gs.all() {
		atomic.StorePointer(&g.sum, nil)
	}
	for _, o := range objs {
		atomic.StorePointer(&o.race, nil)
		atomic.StoreUint64(&o.hcache, 0)
	}
	s.hashed, s.chashed = false, false
	rootsCache = false
	defer func() { rootsCache = true }()
	if got := s.Hash(); got != want {
		t.Fatalf("%s at depth %d: hash %x with caches, %x without", prog, depth, want, got)
	}
	return sums, views
}
