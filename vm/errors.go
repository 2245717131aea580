package vm

import "github.com/gmc-go/gmc/vm/loc"

// Kind classifies an error found in an execution. The values are the
// "kind" strings of the JSON contract (DESIGN §4).
type Kind string

const (
	// KindPanic: an unrecovered panic, including runtime errors
	// ("panic: runtime error: index out of range [3] with length 3").
	KindPanic Kind = "panic"
	// KindDeadlock: every goroutine is blocked
	// ("fatal error: all goroutines are asleep - deadlock!").
	KindDeadlock Kind = "deadlock"
	// KindLeak: the entry returned while goroutines are blocked forever.
	KindLeak Kind = "leak"
	// KindHang: the entry's goroutine is blocked forever while the rest of
	// the program cycles (timers keep firing): what go test reports as
	// "test timed out" (hang.go).
	KindHang Kind = "hang"
	// KindRace: two conflicting accesses not ordered by happens-before.
	KindRace Kind = "race"
	// KindFatal: a fatal runtime error such as "sync: unlock of unlocked mutex".
	KindFatal Kind = "fatal"
	// KindAssert: a failed test (t.Error, t.Fatal) or a reached target.
	KindAssert Kind = "assert"
	// KindUnreachable: an execution reached a location marked unreachable
	// (Options.Unreachable: a //gmc:unreachable comment, a reachability
	// warning gmc confirm checks).
	KindUnreachable Kind = "unreachable"
	// KindUnsupported: the program uses a feature gmc does not model; the
	// run stops ("unsupported: call of os.Open at main.go:12:3").
	KindUnsupported Kind = "unsupported"
	// KindInternal: the interpreter hit a value it cannot handle (for
	// example memory reinterpreted through unsafe.Pointer); the run stops.
	KindInternal Kind = "internal"
)

// Error is an error state's description.
type Error struct {
	Kind       Kind
	Msg        string // as Go prints it
	Pos        string // file.go:line:col of the failing operation
	Loc        loc.Loc
	Goroutines []GoroutineInfo // goroutines involved (leaked, deadlocked, racing)
}

func (e *Error) Error() string { return e.Msg }

// GoroutineInfo describes a goroutine for reports.
type GoroutineInfo struct {
	ID     int
	Status string // "running", "runnable", "blocked", "dead"
	Wait   string // the runtime's wait reason when blocked ("chan send", "sync.Mutex.Lock")
	Start  string // the start function, as the runtime names it
	Loc    loc.Loc
	Stack  []StackFrame // innermost first
}

// StackFrame is one frame of a goroutine's stack.
type StackFrame struct {
	Func string // the runtime's function name
	Pos  string // file.go:line
	Loc  loc.Loc
}
