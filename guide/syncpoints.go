package guide

import "github.com/gmc-go/gmc/vm"

// syncOnly returns the options of the machine the exhaustive searches
// (the exhaustive and dpor strategies, the bounded search of gmc check's portfolio)
// run on: when races are errors, scheduling points at synchronization
// operations only (vm.SchedSync), not at each load and store of shared
// memory; ok is false when the options stay as they are.
//
// Why it loses nothing. Take any execution E with scheduling points at
// shared accesses. Up to its first data race, every pair of conflicting
// accesses of E is ordered by happens-before, so moving each goroutine's
// plain accesses up to its preceding synchronization operation (keeping
// the order of the synchronization operations) gives an execution E' in
// which every read reads the same write: the same values, the same
// control flow, the same errors, with scheduling points at
// synchronization operations only. If E has a race, E' reaches its first
// one too, and the race detector (happens-before with every read and the
// last write of a location remembered, vm/race.go) reports it there,
// since the two accesses are just as unordered in E'. So every error of E
// is found on E' or a race before it is. E' has no more preemptions than
// E: each goroutine switch of E' between two synchronization operations
// has a switch of E between them, and a switch that is free in E (the
// goroutine blocked or yielded, which happens only at a synchronization
// operation) is free in E'. "No error up to k preemptions" thus holds for
// the executions of the finer scheduling too.
//
// The argument needs every race reported and every run of the same length
// of time: not with RaceAt (races elsewhere go unreported), StepTime (time
// passes per transition) or TimerChoice. Options.Quiet is fine: it never
// silences a race (vm), and an error it turns into a plain end ends E and
// E' at the same point.
func syncOnly(o vm.Options) (vm.Options, bool) {
	if o.Sched != vm.SchedShared || !o.Checks.Race || len(o.RaceAt) > 0 ||
		o.StepTime != 0 || o.TimerChoice || len(o.Breakpoints) > 0 {
		return o, false
	}
	o.Sched = vm.SchedSync
	return o, true
}
