package guide

import (
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// The fallback of a guided check. Guided search follows abstract traces
// toward targets; an error it has no target for (typically a goroutine
// leak, which shows only when the entry returns) can lie far from every
// trace. Every round of a guided trial (runTrial) therefore ends with the
// fallback search under the same bound on states as each trace set (a
// random walk with a new seed each round on test, fuzz and function
// entries; the unguided randomized greedy search on main). Bounds count
// states, not time, so a trial's outcome does not depend on the load.
//
// Every other round of the random walk lets timers fire at any scheduling
// point (vm.Options.TimerChoice): real time passes while goroutines run,
// so a short timer can fire in the middle of a busy loop, which the
// synctest-like clock of the other rounds never lets happen (GoKer's
// Grpc3017: a 1ns AfterFunc racing with a loop that stops it).

// fallbackOf returns the fallback strategy of cfg: cfg.Fallback, where ""
// means a random walk for test, fuzz and function entries (whose leaks and
// deadlocks have no target) and none for main; "none" disables it.
func fallbackOf(cfg CheckConfig) Strategy {
	switch cfg.Fallback {
	case "none":
		return ""
	case "":
		if cfg.Entry.Kind == vm.EntryMain {
			return ""
		}
		return Random
	}
	return cfg.Fallback
}

// fallbackMachine returns the machine of the fallback's round: base on
// even rounds, base with timer choices on odd ones.
func (pl *plan) fallbackMachine(prog *load.Program, base *vm.Machine, round int) *vm.Machine {
	if round%2 == 0 || base.Options().TimerChoice {
		return base
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if pl.timed == nil {
		o := base.Options()
		o.TimerChoice = true
		pl.timed = vm.New(prog, o)
	}
	return pl.timed
}
