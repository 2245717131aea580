package vm

import (
	"fmt"
	"syscall"
)

// Natives of golang.org/x/sys/unix: its system call entry points
// (Syscall, Syscall6, RawSyscall, RawSyscall6 and the NoError variants)
// are assembly. The one call the VM answers is the terminal query of
// isatty (sirupsen/logrus, mattn/go-isatty, golang.org/x/term):
// ioctl TCGETS or TIOCGWINSZ. Every descriptor of the program is the VM's
// own (files.go): 0 reads end of file, 1 and 2 are the captured output,
// the others are files of the file system or directories; none is a
// terminal, so the answer is ENOTTY for an open descriptor and EBADF for
// another. It is what the VM's state decides, not what the host says, so
// a replay gives it again without recording anything. (Under `go test`
// of a package list, too, the test binary's output is a pipe: ENOTTY.)
// Any other call stops the entry at the OS boundary, naming the system
// call's number.

func init() {
	for _, name := range []string{"Syscall", "Syscall6", "RawSyscall", "RawSyscall6"} {
		def("golang.org/x/sys/unix."+name, xsysSyscall(name, true))
	}
	for _, name := range []string{"SyscallNoError", "RawSyscallNoError"} {
		def("golang.org/x/sys/unix."+name, xsysSyscall(name, false))
	}
}

// xsysSyscall is the native of unix.NAME: the (r1, r2, errno) results, or
// (r1, r2) when withErr is false.
func xsysSyscall(name string, withErr bool) func(t *thread, args []Value) (Value, ctl) {
	return func(t *thread, args []Value) (Value, ctl) {
		trap := toUint64(args[0])
		if trap == syscall.SYS_IOCTL && withErr && len(args) >= 3 {
			if req := toUint64(args[2]); req == syscall.TCGETS || req == syscall.TIOCGWINSZ {
				e := syscall.ENOTTY
				if fd := int(toUint64(args[1])); fd < 0 || fd >= firstFD && t.s.fileAt(fd) == nil {
					e = syscall.EBADF
				}
				return Tuple{^uintptr(0), uintptr(0), uintptr(e)}, ctlNext
			}
		}
		return nil, t.unsupported(t.g.top, fmt.Sprintf("OS boundary: golang.org/x/sys/unix.%s of system call %d (files, processes, network and signals are not modelled)", name, trap))
	}
}
