package vm

// Natives of golang.org/x/sys/cpu: its feature detection on amd64 is
// assembly (cpuid, xgetbv), called from the package's init, so every
// program that imports it — through golang.org/x/crypto, x/net's http2,
// klauspost's compressors, bytedance/gopkg — stopped at the OS boundary
// before its first test. The VM runs the pure-Go code paths (gmc loads
// with the purego tag), so it answers as a processor with no optional
// feature would: cpuid reports no leaf beyond 0 (the package's archInit
// then sets no X86 flag) and xgetbv no extended state. The answer is the
// VM's, not the host's: a replay gives it again.

func init() {
	def("golang.org/x/sys/cpu.cpuid", nativeXsysCPUID)
	def("golang.org/x/sys/cpu.xgetbv", nativeXsysXgetbv)
}

// nativeXsysCPUID is golang.org/x/sys/cpu.cpuid(eaxArg, ecxArg) (eax,
// ebx, ecx, edx): all zero (leaf 0's eax is the highest leaf: none).
func nativeXsysCPUID(t *thread, args []Value) (Value, ctl) {
	return Tuple{uint32(0), uint32(0), uint32(0), uint32(0)}, ctlNext
}

// nativeXsysXgetbv is golang.org/x/sys/cpu.xgetbv() (eax, edx): no
// extended state enabled.
func nativeXsysXgetbv(t *thread, args []Value) (Value, ctl) {
	return Tuple{uint32(0), uint32(0)}, ctlNext
}
