package vm

import "go/types"

// Compiler intrinsics of standard-library packages interpreted from their
// source: functions whose Go body is a placeholder the gc compiler
// replaces (their body panics "must be intrinsicified" or "intrinsic").
//
// internal/abi's escape hints (Escape, EscapeNonString,
// EscapeToResultNonString) tell the gc compiler's escape analysis to move
// a value to the heap; the VM has no stack to move it from, so each is the
// identity (hash/maphash.Comparable and WriteComparable call
// EscapeNonString; its Go body panics "intrinsic").

func init() {
	def("crypto/internal/constanttime.boolToUint8", nativeConstanttimeBoolToUint8)
	genericNatives["internal/abi.EscapeNonString"] = func(*Machine, []types.Type) *nativeFunc {
		return &nativeFunc{name: "internal/abi.EscapeNonString", fn: nativeAbiEscapeNonString}
	}
	genericNatives["internal/abi.Escape"] = func(*Machine, []types.Type) *nativeFunc {
		return &nativeFunc{name: "internal/abi.Escape", fn: nativeAbiEscape}
	}
	genericNatives["internal/abi.EscapeToResultNonString"] = func(*Machine, []types.Type) *nativeFunc {
		return &nativeFunc{name: "internal/abi.EscapeToResultNonString", fn: nativeAbiEscape}
	}
}

// nativeConstanttimeBoolToUint8 is crypto/internal/constanttime.boolToUint8:
// 1 for true, 0 for false.
func nativeConstanttimeBoolToUint8(t *thread, args []Value) (Value, ctl) {
	if args[0].(bool) {
		return uint8(1), ctlNext
	}
	return uint8(0), ctlNext
}

// nativeAbiEscapeNonString is internal/abi.EscapeNonString[T]: no effect.
func nativeAbiEscapeNonString(t *thread, args []Value) (Value, ctl) { return nil, ctlNext }

// nativeAbiEscape is internal/abi.Escape[T] and EscapeToResultNonString[T]:
// the value itself.
func nativeAbiEscape(t *thread, args []Value) (Value, ctl) { return args[0], ctlNext }
