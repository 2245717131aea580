package vm

// Compiler intrinsics of standard-library packages interpreted from their
// source: functions whose Go body is a placeholder the gc compiler
// replaces (their body panics "must be intrinsicified").

func init() {
	def("crypto/internal/constanttime.boolToUint8", nativeConstanttimeBoolToUint8)
}

// nativeConstanttimeBoolToUint8 is crypto/internal/constanttime.boolToUint8:
// 1 for true, 0 for false.
func nativeConstanttimeBoolToUint8(t *thread, args []Value) (Value, ctl) {
	if args[0].(bool) {
		return uint8(1), ctlNext
	}
	return uint8(0), ctlNext
}
