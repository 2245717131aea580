package vm

import (
	"os"
	"path/filepath"
	"strings"
)

// Natives of package os, which runs from its source over the natives of
// package syscall (natives_syscall.go): the functions package runtime
// provides to it (its arguments, the random numbers of temporary names,
// SIGPIPE), the page size, and the values read from the operating system
// that the trace records (osinputs.go): os.Executable, os.Getwd,
// os.Hostname and the process's ids (syscall.Getpid and friends).

func init() {
	def("os.Getpagesize", osGetpagesize)
	def("syscall.Getpagesize", osGetpagesize)
	def("os.runtime_args", osRuntimeArgs)
	def("os.runtime_rand", osRuntimeRand)
	def("os.sigpipe", osSigpipe)
	def("os.Executable", osExecutable)
	def("os.Getwd", osGetwd)
	def("os.Hostname", osHostname)
	for name, read := range processIDs {
		def("syscall."+name, processID(name, read))
	}
}

// processIDs are the process's ids a program reads from the operating
// system (rs/xid's init reads its pid), recorded (OSInputs.IDs).
var processIDs = map[string]func() int{
	"Getpid": os.Getpid, "Getppid": os.Getppid, "Getuid": os.Getuid,
	"Geteuid": os.Geteuid, "Getgid": os.Getgid, "Getegid": os.Getegid,
}

// processID is the native of syscall.<name>: the host's value, recorded.
func processID(name string, read func() int) func(t *thread, args []Value) (Value, ctl) {
	return func(t *thread, args []Value) (Value, ctl) { return t.m.osIn.id(name, read), ctlNext }
}

// osGetpagesize is os.Getpagesize and syscall.Getpagesize: the page size of
// amd64 Linux, a constant of the machine rather than an input (ristretto's
// buffers are sized by it).
func osGetpagesize(t *thread, args []Value) (Value, ctl) { return 4096, ctlNext }

// osRuntimeArgs is os.runtime_args: the program's name and Options.Args.
func osRuntimeArgs(t *thread, args []Value) (Value, ctl) {
	vals := []Value{osArg0}
	for _, a := range t.m.opts.Args {
		vals = append(vals, a)
	}
	return t.newSliceOf(t.m.stringRType(), vals), ctlNext
}

// osRuntimeRand is os.runtime_rand (the names of temporary files and
// directories): a function of the instructions the run has executed and
// of the numbers it drew, so that a run and its replay make the same
// names; a name that exists already (left by another run of the search:
// the file system is not part of the state) is retried by os with the
// next number, as in Go.
func osRuntimeRand(t *thread, args []Value) (Value, ctl) { return t.osDraw(), ctlNext }

// osDraw is the run's next pseudo-random number for names.
func (t *thread) osDraw() uint64 {
	t.s.draws++
	return splitMix64(uint64(t.s.instrs)*0x9e3779b97f4a7c15 + t.s.draws)
}

// osSigpipe is os.sigpipe (a write to a closed pipe on the standard
// output raises SIGPIPE): the VM's standard streams are never closed.
func osSigpipe(t *thread, args []Value) (Value, ctl) { return nil, ctlNext }

// osExecutable is os.Executable: the path go test gives the binary it
// builds, $TMPDIR/go-build/b001/PKG.test (go run: exe/PKG), without its
// random directory name so that every run and its replay see the same
// value (recorded). gmc builds no binary: the file does not exist, which
// Go allows (the path is not guaranteed to point to the executable); a
// test that re-executes itself through os/exec runs as a machine of its
// own (exec_self.go).
func osExecutable(t *thread, args []Value) (Value, ctl) {
	return Tuple{t.executablePath(), Iface{}}, ctlNext
}

// executablePath is os.Executable's value (recorded).
func (t *thread) executablePath() string {
	return t.m.osIn.value(func(in *OSInputs) **string { return &in.Executable }, func() string {
		name := "main"
		if roots := t.m.prog.Roots; len(roots) > 0 {
			name = strings.TrimSuffix(roots[0].Pkg.Name(), "_test")
		}
		if t.s.entry == EntryMain {
			name = filepath.Join("exe", name)
		} else {
			name = filepath.Join("b001", name+".test")
		}
		return filepath.Join(os.TempDir(), "go-build", name)
	})
}

// osGetwd is os.Getwd: the directory of the package under test, where go
// test runs a test (recorded), or where the program moved to (os.Chdir).
func osGetwd(t *thread, args []Value) (Value, ctl) {
	return Tuple{t.workDir(), Iface{}}, ctlNext
}

// osHostname is os.Hostname: the host's name (recorded).
func osHostname(t *thread, args []Value) (Value, ctl) {
	v := t.m.osIn.value(func(in *OSInputs) **string { return &in.Hostname }, func() string {
		h, _ := os.Hostname()
		return h
	})
	return Tuple{v, Iface{}}, ctlNext
}
