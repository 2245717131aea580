package abstract

import (
	"go/types"

	"github.com/gmc-go/gmc/slice"
	"golang.org/x/tools/go/ssa"
)

// LockOpKind classifies a synchronization call.
type LockOpKind uint8

const (
	NotLock LockOpKind = iota
	Lock               // (*sync.Mutex).Lock, (*sync.RWMutex).Lock
	RLock              // (*sync.RWMutex).RLock
	Unlock             // (*sync.Mutex).Unlock, (*sync.RWMutex).Unlock
	RUnlock            // (*sync.RWMutex).RUnlock
)

// Acquires reports whether the operation acquires a lock.
func (k LockOpKind) Acquires() bool { return k == Lock || k == RLock }

// Releases reports whether the operation releases a lock.
func (k LockOpKind) Releases() bool { return k == Unlock || k == RUnlock }

var lockMethods = map[string]LockOpKind{
	"(*sync.Mutex).Lock":      Lock,
	"(*sync.Mutex).Unlock":    Unlock,
	"(*sync.RWMutex).Lock":    Lock,
	"(*sync.RWMutex).Unlock":  Unlock,
	"(*sync.RWMutex).RLock":   RLock,
	"(*sync.RWMutex).RUnlock": RUnlock,
}

// LockOp recognizes a call (or go/defer) of a sync.Mutex or sync.RWMutex
// method and returns its kind and the mutex pointer it operates on.
func LockOp(in ssa.Instruction) (LockOpKind, ssa.Value) {
	c, ok := in.(ssa.CallInstruction)
	if !ok {
		return NotLock, nil
	}
	com := c.Common()
	callee := com.StaticCallee()
	if callee == nil || len(com.Args) == 0 {
		return NotLock, nil
	}
	k := lockMethods[callee.String()]
	if k == NotLock {
		return NotLock, nil
	}
	return k, com.Args[0]
}

// LockKey names the mutex a pointer value denotes, as precisely as a
// may-alias analysis without points-to can: a global, a field of a struct
// type, a local variable (followed through closures' free variables), or,
// for anything else, the class of the memory the pointer was loaded from.
// Two lock operations with equal keys may operate on the same mutex.
func LockKey(v ssa.Value) string {
	for i := 0; i < 16; i++ {
		fv, ok := v.(*ssa.FreeVar)
		if !ok {
			break
		}
		b := binding(fv)
		if b == nil {
			break
		}
		v = b
	}
	switch v := v.(type) {
	case *ssa.Alloc:
		return "local " + v.Parent().String() + "." + v.Comment
	case *ssa.UnOp:
		if v.Op.String() == "*" {
			return "*" + slice.AddrClass(v.X).String()
		}
	case *ssa.Parameter:
		return "param " + v.Parent().String() + "." + v.Name()
	}
	c := slice.AddrClass(v)
	if c.Kind == slice.Deref {
		return "*" + types.TypeString(v.Type(), nil)
	}
	return c.String()
}

// binding returns the value bound to a free variable by the MakeClosure of
// its function in the enclosing function, if there is exactly one.
func binding(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	idx := -1
	for i, f := range fn.FreeVars {
		if f == fv {
			idx = i
		}
	}
	par := fn.Parent()
	if idx < 0 || par == nil {
		return nil
	}
	var out ssa.Value
	for _, b := range par.Blocks {
		for _, in := range b.Instrs {
			if mc, ok := in.(*ssa.MakeClosure); ok && mc.Fn == fn {
				if out != nil && out != mc.Bindings[idx] {
					return nil
				}
				out = mc.Bindings[idx]
			}
		}
	}
	return out
}
