// Package timeline renders an execution of the VM — typically a
// counterexample being replayed — as a timeline in the Chrome/Perfetto
// trace-event JSON format ({"traceEvents": [...]}), which opens in
// ui.perfetto.dev and chrome://tracing.
//
// The model: virtual time is the transition index, one transition lasting
// one microsecond (transition k, counted from 0, spans [k, k+1) µs). Each
// goroutine is a track (pid 1, tid = goroutine id) named the way the
// runtime names it in tracebacks ("goroutine 2 [main.main.func1]"). On a
// track:
//
//   - a "running" slice (phase "X") covers each maximal stretch of
//     consecutive transitions of the goroutine, named after the function it
//     was in when the stretch began;
//   - inside it, one "step" slice per transition, named after the
//     transition's visible operation ("chan send", "sync.Mutex.Lock",
//     "read", "run"), with its source position;
//   - an instant event (phase "i") marks each channel, select, sync and
//     go operation;
//   - a goroutine still blocked when the run ends gets a "blocked" slice
//     from its last transition to the end, named after its wait reason.
//
// Flow events (phases "s" and "f", bound to the enclosing slices) link the
// transition that released something to the one that acquired it: a send
// to the receive that took its value, a close to a receive it satisfied, an
// unlock to the next lock, WaitGroup.Done to Wait, Signal to the woken
// Wait, and a go statement to the new goroutine's first transition. The
// pairs come from the synchronizations the VM records when
// vm.Options.RecordSync is set (vm.Step.Sync); with it unset the timeline
// has slices and instants but no flows other than go statements.
//
// Invariants the tests check: slices of one track never overlap except by
// nesting; every flow has exactly one start and one finish with the same
// id, and the start is not later than the finish.
package timeline

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gmc-go/gmc/vm"
)

// File is the JSON object written: the trace events and a few facts
// about the run.
type File struct {
	TraceEvents     []Event        `json:"traceEvents"`
	DisplayTimeUnit string         `json:"displayTimeUnit,omitempty"`
	OtherData       map[string]any `json:"otherData,omitempty"`
}

// Event is one trace event of the Chrome trace-event format.
type Event struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat,omitempty"`
	Ph   string         `json:"ph"`
	Ts   float64        `json:"ts"`
	Dur  float64        `json:"dur,omitempty"`
	Pid  int            `json:"pid"`
	Tid  int            `json:"tid"`
	ID   int            `json:"id,omitempty"`
	BP   string         `json:"bp,omitempty"`
	S    string         `json:"s,omitempty"`
	Args map[string]any `json:"args,omitempty"`
}

// step is what the builder keeps of one transition.
type step struct {
	g       int
	pos     string
	fn      string
	op      string
	sync    []vm.SyncEvent
	obj     vm.ObjID // first object of the footprint (the channel of a parked send)
	created []int    // goroutines that came into existence in this transition
}

// goroutine is what the builder knows of one goroutine.
type goroutine struct {
	id    int
	start string // the start function, as the runtime names it
	wait  string // wait reason when blocked at the end of the run
}

// Builder collects the transitions of one run; Observe is a
// trace.Observer.
type Builder struct {
	m     *vm.Machine
	steps []step
	gs    map[int]*goroutine
	live  []int
	title string
	end   string // the error that ended the run, for the closing instant
	other map[string]any
}

// NewBuilder starts a timeline of a run on m. The title names the process
// track (for example the entry and the error found).
func NewBuilder(m *vm.Machine, title string) *Builder {
	return &Builder{m: m, gs: map[int]*goroutine{}, title: title, other: map[string]any{}}
}

// Observe records the transition that produced s.
func (b *Builder) Observe(s *vm.State) {
	ls := s.LastStep()
	st := step{g: ls.G, pos: b.m.Position(ls.Loc), op: ls.Op, sync: ls.Sync}
	if ls.Loc.Fn != nil {
		st.fn = vm.FuncName(ls.Loc.Fn)
	}
	if fp := s.Footprint(); len(fp) > 0 {
		st.obj = fp[0].Obj
	}
	ids := s.GoroutineIDs()
	var fresh []int
	for _, id := range ids {
		if _, ok := b.gs[id]; !ok {
			fresh = append(fresh, id)
		}
	}
	if len(fresh) > 0 {
		for _, gi := range s.Goroutines() {
			if slices.Contains(fresh, gi.ID) {
				b.gs[gi.ID] = &goroutine{id: gi.ID, start: gi.Start}
			}
		}
		for _, id := range fresh {
			if b.gs[id] == nil { // already ended: name unknown
				b.gs[id] = &goroutine{id: id}
			}
			if id != 1 { // goroutine 1 runs the entry; the others come from go statements
				st.created = append(st.created, id)
			}
		}
	}
	if _, ok := b.gs[ls.G]; !ok {
		b.gs[ls.G] = &goroutine{id: ls.G}
	}
	if st.fn == "" { // a goroutine's first transition: it starts in its start function
		st.fn = b.gs[ls.G].start
	}
	b.live = ids
	b.steps = append(b.steps, st)
}

// Finish records the end of the run: the wait reasons of the goroutines
// blocked in the final state and the error that ended it (nil if none).
func (b *Builder) Finish(final *vm.State, e *vm.Error) {
	for _, gi := range final.Goroutines() {
		g := b.gs[gi.ID]
		if g == nil {
			g = &goroutine{id: gi.ID, start: gi.Start}
			b.gs[gi.ID] = g
		}
		if gi.Status == "blocked" {
			g.wait = gi.Wait
		}
	}
	if e != nil {
		b.end = string(e.Kind) + ": " + strings.SplitN(e.Msg, "\n", 2)[0]
		b.other["error"] = map[string]any{"kind": string(e.Kind), "message": e.Msg, "pos": e.Pos}
	}
}

// SetInfo adds a fact about the run to the file's otherData (package,
// entry, replay command...).
func (b *Builder) SetInfo(key string, v any) { b.other[key] = v }

// File returns the timeline.
func (b *Builder) File() *File {
	other := map[string]any{"time_unit": "1 µs = 1 transition", "transitions": len(b.steps)}
	for k, v := range b.other {
		other[k] = v
	}
	return &File{TraceEvents: b.events(), DisplayTimeUnit: "ns", OtherData: other}
}

// Write writes the timeline as JSON to w.
func (b *Builder) Write(w io.Writer) error {
	data, err := json.Marshal(b.File())
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// threadName is the track name of goroutine g.
func (g *goroutine) threadName() string {
	if g.start == "" {
		return fmt.Sprintf("goroutine %d", g.id)
	}
	return fmt.Sprintf("goroutine %d [%s]", g.id, g.start)
}
