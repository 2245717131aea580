package vm

import (
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// returnStore reports whether st is the implicit store of a return
// statement into a named result of its function (`return x` in a function
// with named results stores x into the result variable before returning).
// The gc compiler's race instrumentation makes no write for it (Go issue
// 4014; DESIGN §2), so the race detector does not see it: a goroutine that
// reads the named result, captured by a closure, while the function
// returns it does not race with the return.
func returnStore(st *ssa.Store) bool {
	alloc, ok := st.Addr.(*ssa.Alloc)
	if !ok || !st.Pos().IsValid() {
		return false
	}
	fn := st.Parent()
	res := fn.Signature.Results()
	named := false
	for i := 0; i < res.Len(); i++ {
		if v := res.At(i); v.Name() != "" && v.Pos() == alloc.Pos() {
			named = true
			break
		}
	}
	if !named {
		return false
	}
	return isReturnAt(fn, st.Pos())
}

// isReturnAt reports whether a return statement of fn (or of the function
// literals in it, whose code go/ssa may build into fn for range-over-func
// bodies) starts at pos.
func isReturnAt(fn *ssa.Function, pos token.Pos) bool {
	for f := fn; f != nil; f = f.Parent() {
		syn := f.Syntax()
		if syn == nil {
			continue
		}
		found := false
		ast.Inspect(syn, func(n ast.Node) bool {
			if found || n == nil {
				return false
			}
			if r, ok := n.(*ast.ReturnStmt); ok && r.Return == pos {
				found = true
				return false
			}
			return n.Pos() <= pos && pos < n.End()
		})
		if found {
			return true
		}
	}
	return false
}
