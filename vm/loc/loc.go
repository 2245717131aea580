// Package loc defines program locations shared by the VM, the static
// analyses and the search.
//
// A Loc is one SSA instruction: a function, a basic block index and an
// instruction index within that block. Locations are comparable values (usable
// as map keys); the zero Loc is "no location". A Loc is stable for the life of
// the ssa.Program that produced it.
package loc

import (
	"fmt"
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// Loc is one SSA instruction.
type Loc struct {
	Fn    *ssa.Function
	Block int // index into Fn.Blocks
	Index int // index into Fn.Blocks[Block].Instrs
}

// Of returns the location of an instruction.
func Of(instr ssa.Instruction) Loc {
	b := instr.Block()
	for i, in := range b.Instrs {
		if in == instr {
			return Loc{Fn: b.Parent(), Block: b.Index, Index: i}
		}
	}
	return Loc{Fn: b.Parent(), Block: b.Index, Index: -1}
}

// Valid reports whether l names an instruction.
func (l Loc) Valid() bool {
	return l.Fn != nil && l.Block >= 0 && l.Block < len(l.Fn.Blocks) &&
		l.Index >= 0 && l.Index < len(l.Fn.Blocks[l.Block].Instrs)
}

// Instr returns the instruction at l (nil if l is not valid).
func (l Loc) Instr() ssa.Instruction {
	if !l.Valid() {
		return nil
	}
	return l.Fn.Blocks[l.Block].Instrs[l.Index]
}

// Pos returns the source position of l: the instruction's own position, or
// the nearest following instruction's in the block, or the function's.
func (l Loc) Pos() token.Pos {
	if !l.Valid() {
		if l.Fn != nil {
			return l.Fn.Pos()
		}
		return token.NoPos
	}
	instrs := l.Fn.Blocks[l.Block].Instrs
	for i := l.Index; i < len(instrs); i++ {
		if p := instrs[i].Pos(); p.IsValid() {
			return p
		}
	}
	return l.Fn.Pos()
}

// Position returns "file.go:line:col" (base name of the file) for l.
func (l Loc) Position(fset *token.FileSet) string {
	p := fset.Position(l.Pos())
	if !p.IsValid() {
		return "?"
	}
	return fmt.Sprintf("%s:%d:%d", ShortName(fset, p.Filename), p.Line, p.Column)
}

// String is a debugging form: function, block and index.
func (l Loc) String() string {
	if l.Fn == nil {
		return "<no loc>"
	}
	return fmt.Sprintf("%s#%d.%d", l.Fn.String(), l.Block, l.Index)
}
