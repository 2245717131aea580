package vm

import "golang.org/x/tools/go/ssa"

// StartFunc returns the function goroutine id starts with when it has not
// started yet (a go statement created it and it has not run), or nil: a
// heuristic ranking the goroutine's next transition before it runs needs
// where it will stand (its first transition only starts it).
func (s *State) StartFunc(id int) *ssa.Function {
	g := s.getG(id)
	if g == nil || g.top == nil || g.top.fn != nil || g.top.pc != 0 || g.top.caller != nil || len(g.top.contArgs) == 0 {
		return nil
	}
	if cl, ok := g.top.contArgs[0].(*Closure); ok {
		return cl.Fn
	}
	return nil
}
