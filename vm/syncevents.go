package vm

import "golang.org/x/tools/go/ssa"

// SyncKind classifies one end of a happens-before edge that a transition
// took part in. The events are the points where the race detector joins
// vector clocks (race.go); they are recorded in Step.Sync when
// Options.RecordSync is set, so that reports (the timeline of a
// counterexample) can draw which send a receive took its value from and
// which unlock a lock came after.
type SyncKind uint8

const (
	// SyncRelease: the transition released Obj — Unlock, RUnlock,
	// WaitGroup.Done, a send into a channel's buffer, close of a channel.
	SyncRelease SyncKind = iota + 1
	// SyncAcquire: the transition acquired Obj — Lock, RLock, a
	// WaitGroup.Wait that returns, a receive from a channel's buffer or from
	// a closed channel.
	SyncAcquire
	// SyncWake: the transition completed the parked operation of goroutine
	// Partner, which continues in its next transition — a send to a parked
	// receiver, Cond.Signal or Broadcast waking a Wait.
	SyncWake
	// SyncTake: the transition completed the parked send of goroutine
	// Partner — a receive that takes its value from a parked sender.
	SyncTake
)

// SyncEvent is one synchronization a transition performed: on the object
// Obj (0 when the edge is between goroutines only) or with the goroutine
// Partner (0 when none).
type SyncEvent struct {
	Kind    SyncKind
	Obj     ObjID
	Partner int
}

// noteSync records a synchronization of the running transition in its
// Step (only with Options.RecordSync, and not inside the standard
// library's atomically run code).
func (t *thread) noteSync(k SyncKind, obj ObjID, partner int) {
	if !t.m.opts.RecordSync || t.nested > 0 {
		return
	}
	t.s.last.Sync = append(t.s.last.Sync, SyncEvent{Kind: k, Obj: obj, Partner: partner})
}

// FuncName returns the name the Go runtime gives fn in tracebacks:
// "main.main", "main.(*T).m", "main.main.func1".
func FuncName(fn *ssa.Function) string { return runtimeFuncName(fn) }
