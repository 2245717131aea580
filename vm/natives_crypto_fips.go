package vm

// Natives of crypto/internal/fips140, the boundary of the crypto packages
// that gmc interprets from source (crypto/sha256, crypto/sha512, crypto/sha1,
// crypto/md5, built with the purego tag). The VM runs with FIPS 140-3 mode
// off, as a program does under the default GODEBUG: the self-tests (CAST)
// do not run and the service indicator, which only FIPS tests read, is not
// kept.
func init() {
	def("crypto/internal/fips140.CAST", fips140CAST)
	def("crypto/internal/fips140.RecordApproved", fips140Record)
	def("crypto/internal/fips140.RecordNonApproved", fips140Record)
	def("crypto/internal/fips140only.Enforced", fips140OnlyEnforced)
	def("crypto/fips140.Enforced", fips140OnlyEnforced)
	def("crypto/fips140.Enabled", fips140OnlyEnforced)
	def("crypto/internal/boring/sig.StandardCrypto", boringSig)
	def("crypto/internal/boring/sig.BoringCrypto", boringSig)
	def("crypto/internal/boring/sig.FIPSOnly", boringSig)
}

// boringSig is one of the assembly markers of crypto/internal/boring/sig,
// no-ops that only tag the binary.
func boringSig(t *thread, args []Value) (Value, ctl) { return nil, ctlNext }

// fips140OnlyEnforced is fips140only.Enforced, crypto/fips140.Enforced and
// crypto/fips140.Enabled: false, FIPS 140-3 mode being off.
func fips140OnlyEnforced(t *thread, args []Value) (Value, ctl) { return false, ctlNext }

// fips140CAST is fips140.CAST with FIPS mode off: it only checks the name.
func fips140CAST(t *thread, args []Value) (Value, ctl) {
	name, _ := args[0].(string)
	for _, c := range name {
		if c == ',' || c == '#' || c == '=' || c == ':' {
			return nil, t.doPanic(t.g.top, Iface{T: t.m.stringRType(), V: "fips: invalid self-test name: " + name})
		}
	}
	return nil, ctlNext
}

// fips140Record is RecordApproved / RecordNonApproved: the indicator is not
// observable outside FIPS tests.
func fips140Record(t *thread, args []Value) (Value, ctl) { return nil, ctlNext }
