package abstract

import "github.com/gmc-go/gmc/vm/loc"

// Cursor is how far one search path has followed a trace set: the number of
// leading steps of each trace matched so far (Fig. 2.4 removes matched heads;
// a Cursor counts them instead, so the trace set stays shared). A Cursor is
// a value: Advance returns a new one and never changes its argument, so a
// search can keep one per state.
type Cursor struct{ pos []int }

// NewCursor is the cursor of a path that has matched nothing.
func (ts *TraceSet) NewCursor() Cursor { return Cursor{pos: make([]int, len(ts.Traces))} }

// Matched is the number of trace locations matched in order: the first tier
// of the meta heuristic (more is better).
func (c Cursor) Matched() int {
	n := 0
	for _, p := range c.pos {
		n += p
	}
	return n
}

// Pos is the number of steps of trace i matched.
func (c Cursor) Pos(i int) int { return c.pos[i] }

// Advance matches the location a goroutine has just reached against the
// head of every unfinished trace (Fig. 2.4 line 11) and returns the cursor
// with the first trace whose head it is advanced, and that trace's index;
// -1 and the same cursor if at is no head.
func (ts *TraceSet) Advance(c Cursor, at loc.Loc) (Cursor, int) {
	for i, t := range ts.Traces {
		if p := c.pos[i]; p < len(t.Steps) && t.Steps[p].Loc == at {
			n := Cursor{pos: append([]int(nil), c.pos...)}
			n.pos[i]++
			return n, i
		}
	}
	return c, -1
}

// Heads returns, for each trace, its next unmatched step and whether it has
// one (the second tier measures the distance to these).
func (ts *TraceSet) Heads(c Cursor) []Step {
	var out []Step
	for i, t := range ts.Traces {
		if p := c.pos[i]; p < len(t.Steps) {
			out = append(out, t.Steps[p])
		}
	}
	return out
}

// Done reports whether every trace has been matched to its target.
func (ts *TraceSet) Done(c Cursor) bool {
	for i, t := range ts.Traces {
		if c.pos[i] < len(t.Steps) {
			return false
		}
	}
	return true
}

// SuccLoc is, for a Branch step with a desired successor, the first
// instruction of that successor block (the seed's l'_α of Fig. 2.4 line 13).
func (st Step) SuccLoc() (loc.Loc, bool) {
	if st.Kind&Branch == 0 || st.Succ < 0 {
		return loc.Loc{}, false
	}
	b := st.Loc.Fn.Blocks[st.Loc.Block].Succs[st.Succ]
	return loc.Loc{Fn: st.Loc.Fn, Block: b.Index}, true
}

// Took reports whether a goroutine that executed the branch of st and is
// now at next went the desired way; true for steps that are not branches
// with a desired side. A false answer is the refinement trigger of Fig. 2.4
// line 14.
func (st Step) Took(next loc.Loc) bool {
	want, ok := st.SuccLoc()
	if !ok {
		return true
	}
	return next.Fn == want.Fn && next.Block == want.Block
}
