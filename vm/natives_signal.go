package vm

// Natives of os/signal. The process the VM runs receives no signal: none
// comes from outside a run (gmc explores the program, not its operator),
// and the program cannot send itself one (syscall.Kill, os.Process.Signal
// and os/exec stop the run at the OS boundary). So Notify only registers
// its channel, in a map of the machine's registrations (finTab's sigCell,
// a root of the state hash, of the leak check and of the collector, as
// os/signal's handlers table is a root in Go): a goroutine waiting on it
// waits as in a test process no one signals, and is not leaked — a signal
// could come. Stop unregisters the channel; Ignore and Reset change
// nothing a run can see; Ignored reports false (the VM's process starts
// with every signal at its default). go-zero's core/proc, imported by
// most of its packages, registers SIGUSR1, SIGUSR2 and SIGTERM in its
// init: every test of those packages stopped at the OS boundary.
// NotifyContext stays at the boundary.

func init() {
	def("os/signal.Notify", nativeSignalNotify)
	def("os/signal.Stop", nativeSignalStop)
	def("os/signal.Ignore", nativeSignalNoEffect)
	def("os/signal.Reset", nativeSignalNoEffect)
	def("os/signal.Ignored", nativeSignalIgnored)
}

// nativeSignalNotify is os/signal.Notify(c, sig...): c registered, no
// signal ever sent on it; a nil c panics as in Go.
func nativeSignalNotify(t *thread, args []Value) (Value, ctl) {
	c, _ := args[0].(Chan)
	if c.Obj == 0 {
		return nil, t.stringPanic("os/signal: Notify using nil channel")
	}
	mv := t.tabMap(sigCell, true)
	t.s.heap.mut(mv.Obj, t.s.epoch).Map.set(c, true)
	return nil, ctlNext
}

// nativeSignalStop is os/signal.Stop(c): c unregistered.
func nativeSignalStop(t *thread, args []Value) (Value, ctl) {
	if c, _ := args[0].(Chan); c.Obj != 0 {
		if mv := t.tabMap(sigCell, false); mv.Obj != 0 {
			t.s.heap.mut(mv.Obj, t.s.epoch).Map.del(c)
		}
	}
	return nil, ctlNext
}

// nativeSignalNoEffect is os/signal.Ignore and Reset.
func nativeSignalNoEffect(t *thread, args []Value) (Value, ctl) { return nil, ctlNext }

// nativeSignalIgnored is os/signal.Ignored: false.
func nativeSignalIgnored(t *thread, args []Value) (Value, ctl) { return false, ctlNext }
