package timeline

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/gmc-go/gmc/vm"
)

// pid is the process of every track: one program run.
const pid = 1

// events turns the recorded transitions into trace events: metadata,
// slices, instants and flows, in that order.
func (b *Builder) events() []Event {
	ev := []Event{{Name: "process_name", Ph: "M", Pid: pid, Args: map[string]any{"name": b.title}}}
	ids := slices.Sorted(maps.Keys(b.gs))
	for _, id := range ids {
		ev = append(ev,
			Event{Name: "thread_name", Ph: "M", Pid: pid, Tid: id, Args: map[string]any{"name": b.gs[id].threadName()}},
			Event{Name: "thread_sort_index", Ph: "M", Pid: pid, Tid: id, Args: map[string]any{"sort_index": id}})
	}
	n := len(b.steps)
	last := map[int]int{} // last transition of each goroutine
	for i := 0; i < n; {
		j := i
		for j < n && b.steps[j].g == b.steps[i].g {
			j++
		}
		first := b.steps[i]
		ev = append(ev, Event{Name: funcOr(first.fn), Cat: "running", Ph: "X", Ts: float64(i), Dur: float64(j - i),
			Pid: pid, Tid: first.g, Args: map[string]any{"from": first.pos, "transitions": fmt.Sprintf("%d-%d", i+1, j)}})
		for k := i; k < j; k++ {
			s := b.steps[k]
			ev = append(ev, Event{Name: s.op, Cat: "step", Ph: "X", Ts: float64(k), Dur: 1, Pid: pid, Tid: s.g,
				Args: map[string]any{"pos": s.pos, "func": funcOr(s.fn), "transition": k + 1}})
			if syncOp(s.op) {
				ev = append(ev, Event{Name: s.op, Cat: "op", Ph: "i", S: "t", Ts: float64(k) + 0.5, Pid: pid, Tid: s.g,
					Args: map[string]any{"pos": s.pos}})
			}
			last[s.g] = k
		}
		i = j
	}
	// goroutines blocked when the run ended: blocked until the end
	for _, id := range ids {
		g := b.gs[id]
		if g.wait == "" {
			continue
		}
		from := 0
		if k, ok := last[id]; ok {
			from = k + 1
		}
		ev = append(ev, Event{Name: "blocked: " + g.wait, Cat: "blocked", Ph: "X", Ts: float64(from), Dur: float64(n + 1 - from),
			Pid: pid, Tid: id, Args: map[string]any{"wait": g.wait}})
	}
	if b.end != "" {
		ev = append(ev, Event{Name: b.end, Cat: "error", Ph: "i", S: "g", Ts: float64(n), Pid: pid, Tid: 1})
	}
	for k, f := range b.flows() {
		from, to := b.steps[f.from], b.steps[f.to]
		ev = append(ev,
			Event{Name: f.name, Cat: "flow", Ph: "s", ID: k + 1, Ts: float64(f.from) + 0.5, Pid: pid, Tid: from.g},
			Event{Name: f.name, Cat: "flow", Ph: "f", BP: "e", ID: k + 1, Ts: float64(f.to) + 0.5, Pid: pid, Tid: to.g})
	}
	return ev
}

func funcOr(fn string) string {
	if fn == "" {
		return "?"
	}
	return fn
}

// syncOp reports whether op is a channel, select, sync or go operation
// (the operations marked by instant events).
func syncOp(op string) bool {
	return strings.HasPrefix(op, "chan ") || op == "select" || strings.HasPrefix(op, "sync.") || op == "go"
}

func chanOp(op string) bool { return strings.HasPrefix(op, "chan ") || op == "select" }

// flow links transition from to transition to (from < to), on different
// goroutines.
type flow struct {
	from, to int
	name     string
}

// flows pairs the transitions that synchronized, from the recorded
// synchronizations: a receive with the send whose value it took (channels
// are FIFO: a buffered value goes to the oldest receive, and a parked
// sender's value enters the buffer when a receive makes room), a close
// with the receives it satisfied, a release by a sync operation (Unlock,
// RUnlock, WaitGroup.Done) with the acquisitions by sync operations that
// follow it on the same object, a wake with the woken goroutine's next
// transition, and a go statement with the new goroutine's first
// transition. Atomics and the virtual clock are not drawn. The VM names
// objects, not fields: two mutexes of one struct share their releases.
func (b *Builder) flows() []flow {
	steps := b.steps
	byG := map[int][]int{}
	for i, s := range steps {
		byG[s.g] = append(byG[s.g], i)
	}
	next := func(g, i int) int { // g's first transition after i
		ks := byG[g]
		if k := sort.SearchInts(ks, i+1); k < len(ks) {
			return ks[k]
		}
		return -1
	}
	prev := func(g, i int) int { // g's last transition before i
		ks := byG[g]
		if k := sort.SearchInts(ks, i) - 1; k >= 0 {
			return ks[k]
		}
		return -1
	}
	var out []flow
	add := func(from, to int) {
		if from >= 0 && to > from && steps[from].g != steps[to].g {
			out = append(out, flow{from: from, to: to, name: steps[from].op + " → " + steps[to].op})
		}
	}
	buffered := map[vm.ObjID][]int{} // sends whose value is in a channel's buffer
	parked := map[vm.ObjID][]int{}   // sends parked on a channel
	closed := map[vm.ObjID]int{}     // the close of a channel
	released := map[vm.ObjID][]int{} // releases of an object since its last acquisition
	for j, s := range steps {
		for _, e := range s.sync {
			switch e.Kind {
			case vm.SyncWake:
				add(j, next(e.Partner, j))
			case vm.SyncTake:
				k := prev(e.Partner, j)
				add(k, j)
				for obj, ps := range parked {
					parked[obj] = slices.DeleteFunc(ps, func(p int) bool { return p == k })
				}
			case vm.SyncRelease:
				switch {
				case e.Obj == 0: // the virtual clock: no pairing
				case s.op == "chan close":
					closed[e.Obj] = j
				case chanOp(s.op):
					buffered[e.Obj] = append(buffered[e.Obj], j)
				case strings.HasPrefix(s.op, "sync."):
					released[e.Obj] = append(released[e.Obj], j)
				}
			case vm.SyncAcquire:
				if e.Obj == 0 {
					continue
				}
				if !chanOp(s.op) {
					if !strings.HasPrefix(s.op, "sync.") {
						continue
					}
					for _, r := range released[e.Obj] {
						add(r, j)
					}
					delete(released, e.Obj)
					continue
				}
				if q := buffered[e.Obj]; len(q) > 0 {
					add(q[0], j)
					buffered[e.Obj] = q[1:]
					if p := parked[e.Obj]; len(p) > 0 {
						buffered[e.Obj] = append(buffered[e.Obj], p[0])
						parked[e.Obj] = p[1:]
					}
				} else if c, ok := closed[e.Obj]; ok {
					add(c, j)
				}
			}
		}
		// a send that neither completed nor buffered parked on its channel
		if s.op == "chan send" && len(s.sync) == 0 && s.obj != 0 {
			parked[s.obj] = append(parked[s.obj], j)
		}
		for _, c := range s.created {
			if k := next(c, j); k >= 0 {
				out = append(out, flow{from: j, to: k, name: "go"})
			}
		}
	}
	sort.SliceStable(out, func(a, c int) bool { return out[a].from < out[c].from })
	return out
}
