package vm

import "math/bits"

// math/bits' arithmetic with carries and products, which the gc compiler
// replaces by single instructions (intrinsics): natives, so that
// math/big's word loops (interpreted from source, its assembly aside) do
// not push a frame per word. Their Go bodies compute the same values;
// cockroachdb/apd's initialization, tables of powers of ten, called
// bits.Add 710,000 times and bits.Mul 384,000 times per execution.
// Div is left to its source (its panics are the runtime's).

func init() {
	def("math/bits.Add", nativeBitsAdd)
	def("math/bits.Add64", nativeBitsAdd64)
	def("math/bits.Sub", nativeBitsSub)
	def("math/bits.Sub64", nativeBitsSub64)
	def("math/bits.Mul", nativeBitsMul)
	def("math/bits.Mul64", nativeBitsMul64)
	def("math/bits.Len", nativeBitsLen)
	def("math/bits.Len64", nativeBitsLen64)
	def("math/bits.LeadingZeros", nativeBitsLeadingZeros)
	def("math/bits.LeadingZeros64", nativeBitsLeadingZeros64)
	def("math/bits.TrailingZeros", nativeBitsTrailingZeros)
	def("math/bits.TrailingZeros64", nativeBitsTrailingZeros64)
}

// nativeBitsAdd is bits.Add: (sum, carryOut).
func nativeBitsAdd(t *thread, args []Value) (Value, ctl) {
	s, c := bits.Add(args[0].(uint), args[1].(uint), args[2].(uint))
	return Tuple{s, c}, ctlNext
}

// nativeBitsAdd64 is bits.Add64: (sum, carryOut).
func nativeBitsAdd64(t *thread, args []Value) (Value, ctl) {
	s, c := bits.Add64(args[0].(uint64), args[1].(uint64), args[2].(uint64))
	return Tuple{s, c}, ctlNext
}

// nativeBitsSub is bits.Sub: (diff, borrowOut).
func nativeBitsSub(t *thread, args []Value) (Value, ctl) {
	d, b := bits.Sub(args[0].(uint), args[1].(uint), args[2].(uint))
	return Tuple{d, b}, ctlNext
}

// nativeBitsSub64 is bits.Sub64: (diff, borrowOut).
func nativeBitsSub64(t *thread, args []Value) (Value, ctl) {
	d, b := bits.Sub64(args[0].(uint64), args[1].(uint64), args[2].(uint64))
	return Tuple{d, b}, ctlNext
}

// nativeBitsMul is bits.Mul: (hi, lo).
func nativeBitsMul(t *thread, args []Value) (Value, ctl) {
	hi, lo := bits.Mul(args[0].(uint), args[1].(uint))
	return Tuple{hi, lo}, ctlNext
}

// nativeBitsMul64 is bits.Mul64: (hi, lo).
func nativeBitsMul64(t *thread, args []Value) (Value, ctl) {
	hi, lo := bits.Mul64(args[0].(uint64), args[1].(uint64))
	return Tuple{hi, lo}, ctlNext
}

// nativeBitsLen is bits.Len.
func nativeBitsLen(t *thread, args []Value) (Value, ctl) { return bits.Len(args[0].(uint)), ctlNext }

// nativeBitsLen64 is bits.Len64.
func nativeBitsLen64(t *thread, args []Value) (Value, ctl) {
	return bits.Len64(args[0].(uint64)), ctlNext
}

// nativeBitsLeadingZeros is bits.LeadingZeros.
func nativeBitsLeadingZeros(t *thread, args []Value) (Value, ctl) {
	return bits.LeadingZeros(args[0].(uint)), ctlNext
}

// nativeBitsLeadingZeros64 is bits.LeadingZeros64.
func nativeBitsLeadingZeros64(t *thread, args []Value) (Value, ctl) {
	return bits.LeadingZeros64(args[0].(uint64)), ctlNext
}

// nativeBitsTrailingZeros is bits.TrailingZeros.
func nativeBitsTrailingZeros(t *thread, args []Value) (Value, ctl) {
	return bits.TrailingZeros(args[0].(uint)), ctlNext
}

// nativeBitsTrailingZeros64 is bits.TrailingZeros64.
func nativeBitsTrailingZeros64(t *thread, args []Value) (Value, ctl) {
	return bits.TrailingZeros64(args[0].(uint64)), ctlNext
}
