package guide

import "github.com/gmc-go/gmc/vm"

// The fallback of a guided check. Guided search follows abstract traces
// toward targets; an error it has no target for (typically a goroutine
// leak, which shows only when the entry returns) can lie far from every
// trace. Every round of a guided trial (runTrial) therefore ends with the
// fallback search under the same bound on states as each trace set (a
// random walk with a new seed each round on test, fuzz and function
// entries; the unguided randomized greedy search on main). Bounds count
// states, not time, so a trial's outcome does not depend on the load.

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
