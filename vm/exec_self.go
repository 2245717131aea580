package vm

import (
	"fmt"
	"go/types"
	"strings"
)

// Natives of package os/exec for a test that re-executes its own test
// binary (os.Executable, or os.Args[0]) with -test.run and an environment
// of its choosing, as golang.org/x/sync/singleflight's TestPanicDoChan
// does to see a crash from outside. The child is the same program: a
// machine of its own runs it with that environment, arguments and test
// selection (exec_child.go), and its output and exit status are go
// test's. Start runs the child (once per arguments and environment: a
// machine caches the outcome); Wait writes its output to cmd.Stdout and
// cmd.Stderr and returns nil or an *exec.ExitError with the exit status,
// as Go's does after the copying goroutines are done. Run, Output and
// CombinedOutput are Start and Wait. Any other program stays at the OS
// boundary ("unsupported: OS boundary: os/exec of PATH at file:line").

func init() {
	def("os/exec.Command", execCommand)
	def("(*os/exec.Cmd).Start", execStart)
	def("(*os/exec.Cmd).Wait", execWait)
	def("(*os/exec.Cmd).Run", execRun)
	def("(*os/exec.Cmd).Output", execOutput)
	def("(*os/exec.Cmd).CombinedOutput", execCombinedOutput)
	def("(*os/exec.ExitError).Error", exitErrorError)
	def("(*os.ProcessState).ExitCode", processStateExitCode)
	def("(*os.ProcessState).String", processStateString)
	def("(*os.ProcessState).Success", processStateSuccess)
	def("(*os.ProcessState).Exited", processStateExited)
}

// childPIDBase numbers the children's processes: a Cmd's Process.Pid is
// this plus the index of its outcome in the machine's table (execRuns).
const childPIDBase = 100000

// field returns the cell of field name of the struct of type rt at p
// (promoted fields too) and the field's type.
func (t *thread) field(p Pointer, rt *RType, name string) (Pointer, *RType) {
	off, frt, ok := t.m.testField(rt, name)
	if !ok {
		panic("gmc: no field " + name + " in " + rt.String())
	}
	return Pointer{Obj: p.Obj, Off: p.Off + off}, frt
}

// execTypes returns os/exec.Cmd, os.Process and os.ProcessState (nil if
// the program lacks one).
func (m *Machine) execTypes() (cmd, proc, ps *RType) {
	return m.namedType("os/exec", "Cmd"), m.namedType("os", "Process"), m.namedType("os", "ProcessState")
}

// strings returns the elements of a []string value.
func (t *thread) stringsOf(v Value) []string {
	sl, _ := v.(Slice)
	if sl.Obj == 0 || sl.Len == 0 {
		return nil
	}
	var out []string
	for _, c := range t.s.sliceCells(sl, t.m.stringRType()) {
		out = append(out, c.(string))
	}
	return out
}

// execCommand is exec.Command(name, arg...): a Cmd with Path and Args set
// (the lookup in $PATH of a name without a slash is left to Start, which
// runs only the test binary).
func execCommand(t *thread, args []Value) (Value, ctl) {
	crt, _, _ := t.m.execTypes()
	if crt == nil {
		return nil, t.unsupported(t.g.top, "os/exec.Command without os/exec's types")
	}
	name := args[0].(string)
	argv := append([]string{name}, t.stringsOf(args[1])...)
	vals := make([]Value, len(argv))
	for i, a := range argv {
		vals[i] = a
	}
	p := t.alloc(crt)
	c, _ := t.field(p, crt, "Path")
	t.setCell(c, 0, name)
	c, _ = t.field(p, crt, "Args")
	t.setCell(c, 0, t.newSliceOf(t.m.stringRType(), vals))
	return p, ctlNext
}

// execStart is (*Cmd).Start.
func execStart(t *thread, args []Value) (Value, ctl) {
	err, k := t.cmdStart(ptrArg(args[0]))
	return err, k
}

// cmdStart starts the Cmd at p: its outcome is computed now and kept in
// the machine's table, Process is set.
func (t *thread) cmdStart(p Pointer) (Value, ctl) {
	if p.Obj == 0 {
		return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	crt, prt, _ := t.m.execTypes()
	if prt == nil {
		return nil, t.unsupported(t.g.top, "os/exec without os.Process")
	}
	get := func(name string) Value {
		c, _ := t.field(p, crt, name)
		return t.cell(c, 0)
	}
	if e, _ := get("Err").(Iface); e.T != nil {
		return e, ctlNext
	}
	if pp, _ := get("Process").(Pointer); pp.Obj != 0 {
		return t.newError("exec: already started"), ctlNext
	}
	path, argv := get("Path").(string), t.stringsOf(get("Args"))
	if path != t.executablePath() && path != osArg0 {
		return nil, t.unsupported(t.g.top, "OS boundary: os/exec of "+path+" (only the test binary itself, os.Executable, is run: as a machine of its own)")
	}
	if in, _ := get("Stdin").(Iface); in.T != nil {
		return nil, t.unsupported(t.g.top, "os/exec: a re-executed test binary with a standard input")
	}
	if dir, _ := get("Dir").(string); dir != "" {
		return nil, t.unsupported(t.g.top, "os/exec: a re-executed test binary in another directory ("+dir+")")
	}
	// Env nil: the parent's environment; empty: none
	env := t.environ()
	if ev, _ := get("Env").(Slice); ev.Obj != 0 {
		env = t.stringsOf(ev)
	}
	idx, why := t.m.execSelf(argv, env)
	if why != "" {
		return nil, t.unsupported(t.g.top, why)
	}
	proc := t.alloc(prt)
	c, _ := t.field(proc, prt, "Pid")
	t.setCell(c, 0, childPIDBase+idx)
	c, _ = t.field(p, crt, "Process")
	t.setCell(c, 0, proc)
	return Iface{}, ctlNext
}

// cmdOutcome returns the outcome of the started Cmd at p (nil: not
// started by cmdStart).
func (t *thread) cmdOutcome(p Pointer) *execResult {
	crt, prt, _ := t.m.execTypes()
	c, _ := t.field(p, crt, "Process")
	proc, _ := t.cell(c, 0).(Pointer)
	if proc.Obj == 0 {
		return nil
	}
	c, _ = t.field(proc, prt, "Pid")
	return t.m.execRun(toInt(t.cell(c, 0)) - childPIDBase)
}

// cmdWait waits for the Cmd at p, started: its output goes to Stdout and
// Stderr (one writer: in the order written), ProcessState is set, and the
// error is nil or an *exec.ExitError (with Stderr when capture).
func (t *thread) cmdWait(p Pointer, capture bool) (Value, ctl) {
	if p.Obj == 0 {
		return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	crt, _, psrt := t.m.execTypes()
	r := t.cmdOutcome(p)
	if r == nil {
		return t.newError("exec: not started"), ctlNext
	}
	psc, _ := t.field(p, crt, "ProcessState")
	if ps, _ := t.cell(psc, 0).(Pointer); ps.Obj != 0 {
		return t.newError("exec: Wait was already called"), ctlNext
	}
	outc, _ := t.field(p, crt, "Stdout")
	errc, _ := t.field(p, crt, "Stderr")
	stdout, _ := t.cell(outc, 0).(Iface)
	stderr, _ := t.cell(errc, 0).(Iface)
	if stdout.T != nil && stdout == stderr {
		if k := t.execWrite(stdout, r.text(0)); k != ctlNext {
			return nil, k
		}
	} else {
		for _, w := range []struct {
			iv Iface
			fd int
		}{{stdout, 1}, {stderr, 2}} {
			if w.iv.T == nil || r.text(w.fd) == "" {
				continue
			}
			if k := t.execWrite(w.iv, r.text(w.fd)); k != ctlNext {
				return nil, k
			}
		}
	}
	if psrt == nil {
		return nil, t.unsupported(t.g.top, "os/exec without os.ProcessState")
	}
	ps := t.alloc(psrt)
	c, _ := t.field(ps, psrt, "pid")
	proc, _ := t.field(p, crt, "Process")
	pid, _ := t.field(t.cell(proc, 0).(Pointer), t.m.namedType("os", "Process"), "Pid")
	t.setCell(c, 0, toInt(t.cell(pid, 0)))
	c, _ = t.field(ps, psrt, "status")
	t.setCell(c, 0, uint32(r.code)<<8)
	t.setCell(psc, 0, ps)
	if r.code == 0 {
		return Iface{}, ctlNext
	}
	ert := t.m.namedType("os/exec", "ExitError")
	if ert == nil {
		return nil, t.unsupported(t.g.top, "os/exec without exec.ExitError")
	}
	ee := t.alloc(ert)
	c, _ = t.field(ee, ert, "ProcessState")
	t.setCell(c, 0, ps)
	if capture && stderr.T == nil {
		c, _ = t.field(ee, ert, "Stderr")
		t.setCell(c, 0, t.newBytes([]byte(r.text(2))))
	}
	return Iface{T: t.m.types.get(types.NewPointer(ert.T)), V: ee}, ctlNext
}

// execWrite writes data to the io.Writer w (a Cmd's Stdout or Stderr)
// through its Write method, as os/exec's copying goroutine does.
func (t *thread) execWrite(w Iface, data string) ctl {
	m := w.T.methodByName("Write")
	if m == nil {
		return t.unsupported(t.g.top, "os/exec: a writer without a Write method, "+w.T.String())
	}
	if _, ok := t.syncCall(m, []Value{w.V, t.newBytes([]byte(data))}); !ok {
		return t.unsupported(t.g.top, "os/exec: the Write method of "+w.T.String()+" blocks or panics")
	}
	return ctlNext
}

// execWait is (*Cmd).Wait.
func execWait(t *thread, args []Value) (Value, ctl) { return t.cmdWait(ptrArg(args[0]), false) }

// execRun is (*Cmd).Run: Start, then Wait.
func execRun(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	if err, k := t.cmdStart(p); k != ctlNext || err.(Iface).T != nil {
		return err, k
	}
	return t.cmdWait(p, false)
}

// execOutput is (*Cmd).Output: Run with the standard output returned
// (and the standard error in the ExitError when Stderr is nil).
func execOutput(t *thread, args []Value) (Value, ctl) {
	return t.cmdCapture(ptrArg(args[0]), 1)
}

// execCombinedOutput is (*Cmd).CombinedOutput: Run with both outputs
// returned, in the order written.
func execCombinedOutput(t *thread, args []Value) (Value, ctl) {
	return t.cmdCapture(ptrArg(args[0]), 0)
}

// cmdCapture runs the Cmd at p and returns what it wrote to fd (0: both)
// and the error.
func (t *thread) cmdCapture(p Pointer, fd int) (Value, ctl) {
	if p.Obj == 0 {
		return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	crt, _, _ := t.m.execTypes()
	for _, name := range []string{"Stdout", "Stderr"} {
		c, _ := t.field(p, crt, name)
		if iv, _ := t.cell(c, 0).(Iface); iv.T != nil && (fd == 0 || name == "Stdout") {
			return Tuple{Slice{}, t.newError("exec: " + name + " already set")}, ctlNext
		}
	}
	if err, k := t.cmdStart(p); k != ctlNext || err.(Iface).T != nil {
		return Tuple{Slice{}, err}, k
	}
	err, k := t.cmdWait(p, fd == 1)
	if k != ctlNext {
		return nil, k
	}
	return Tuple{t.newBytes([]byte(t.cmdOutcome(p).text(fd))), err}, ctlNext
}

// exitStatus returns the exit code of the *os.ProcessState at p.
func (t *thread) exitStatus(p Pointer) (int, bool) {
	_, _, psrt := t.m.execTypes()
	if p.Obj == 0 || psrt == nil {
		return -1, false
	}
	c, _ := t.field(p, psrt, "status")
	return int(toUint64(t.cell(c, 0)) >> 8), true
}

// processStateExitCode is (*os.ProcessState).ExitCode (-1 for nil).
func processStateExitCode(t *thread, args []Value) (Value, ctl) {
	code, _ := t.exitStatus(ptrArg(args[0]))
	return code, ctlNext
}

// processStateString is (*os.ProcessState).String: "exit status N" (a
// child gmc runs always exits).
func processStateString(t *thread, args []Value) (Value, ctl) {
	code, ok := t.exitStatus(ptrArg(args[0]))
	if !ok {
		return "<nil>", ctlNext
	}
	return fmt.Sprintf("exit status %d", code), ctlNext
}

// processStateSuccess is (*os.ProcessState).Success.
func processStateSuccess(t *thread, args []Value) (Value, ctl) {
	code, _ := t.exitStatus(ptrArg(args[0]))
	return code == 0, ctlNext
}

// processStateExited is (*os.ProcessState).Exited: always (no signals).
func processStateExited(t *thread, args []Value) (Value, ctl) { return true, ctlNext }

// exitErrorError is (*exec.ExitError).Error: its ProcessState's String.
func exitErrorError(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	ert := t.m.namedType("os/exec", "ExitError")
	if p.Obj == 0 || ert == nil {
		return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	c, _ := t.field(p, ert, "ProcessState")
	return processStateString(t, []Value{t.cell(c, 0)})
}

// execResult is a child's outcome: what it wrote, in order, and its exit
// status.
type execResult struct {
	chunks []OutputChunk
	code   int
}

// text is what the child wrote to fd (0: both, in order).
func (r *execResult) text(fd int) string {
	var b strings.Builder
	for _, c := range r.chunks {
		if fd == 0 || c.FD == fd {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}
