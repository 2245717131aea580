package vm

import (
	"go/types"
	"path/filepath"
	"syscall"
)

// Natives of statfs(2): syscall.Statfs and Fstatfs, and
// golang.org/x/sys/unix's, which are the same system call. Programs ask
// it what file system a path is on: prometheus/procfs whether /proc is
// procfs (in a package initializer: every test of prometheus/client_golang's
// prometheus package), go-zero's core/stat whether /sys/fs/cgroup is
// cgroup v2 (every test of its breaker, load and queue packages). The
// answer is the host's for the path (files are the host's, read-only,
// files.go): a path the program made in its own files (files_overlay.go)
// is on the file system of its nearest ancestor on the host. Like the
// other values read from the operating system (osinputs.go), a machine
// asks the host once per path and records the answer, so that every run,
// and a replay on another host, sees the same one — free blocks and
// inodes change as the host runs.

func init() {
	def("syscall.Statfs", statfsNative("syscall", false))
	def("syscall.Fstatfs", statfsNative("syscall", true))
	def("golang.org/x/sys/unix.Statfs", statfsNative("golang.org/x/sys/unix", false))
	def("golang.org/x/sys/unix.Fstatfs", statfsNative("golang.org/x/sys/unix", true))
}

// FSStat is a statfs(2) answer as OSInputs records it.
type FSStat struct {
	Type    int64  `json:"type"`
	Bsize   int64  `json:"bsize"`
	Blocks  uint64 `json:"blocks"`
	Bfree   uint64 `json:"bfree"`
	Bavail  uint64 `json:"bavail"`
	Files   uint64 `json:"files"`
	Ffree   uint64 `json:"ffree"`
	Namelen int64  `json:"namelen"`
	Frsize  int64  `json:"frsize"`
	Flags   int64  `json:"flags"`
	Errno   int    `json:"errno,omitempty"` // the host's error, when it failed
}

// statfsNative is PKG.Statfs(path string, buf *Statfs_t) error, or
// PKG.Fstatfs(fd int, buf *Statfs_t) error when byFD.
func statfsNative(pkg string, byFD bool) func(t *thread, args []Value) (Value, ctl) {
	return func(t *thread, args []Value) (Value, ctl) {
		buf := ptrArg(args[1])
		if buf.Obj == 0 {
			return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
		}
		var path string
		if byFD {
			fd := toInt(args[0])
			f := t.s.fileAt(fd)
			switch {
			case fd >= 0 && fd < firstFD:
				path = "/dev"
			case f == nil:
				return t.errnoValue(syscall.EBADF), ctlNext
			default:
				path = f.path
			}
		} else {
			p, e := t.hostPath(atFDCWD, args[0].(string))
			if e == 0 {
				_, e = t.stat(p, true)
			}
			if e != 0 {
				return t.errnoValue(e), ctlNext
			}
			path = p
		}
		st := t.m.osIn.statfs(t.hostAncestor(path))
		if st.Errno != 0 {
			return t.errnoValue(syscall.Errno(st.Errno)), ctlNext
		}
		t.fillStatfs(buf, t.m.namedType(pkg, "Statfs_t"), st)
		return Iface{}, ctlNext
	}
}

// hostAncestor is path, or its nearest ancestor that is the host's (not
// made by the program).
func (t *thread) hostAncestor(path string) string {
	for p := path; ; p = filepath.Dir(p) {
		if n := t.s.node(p); n == nil || n.host != nil {
			return p
		}
		if p == "/" || p == "." {
			return p
		}
	}
}

// statfs is the host's statfs of path, recorded.
func (r *osInputs) statfs(path string) FSStat {
	r.mu.Lock()
	defer r.mu.Unlock()
	if st, ok := r.in.Statfs[path]; ok {
		return st
	}
	var hs syscall.Statfs_t
	var st FSStat
	if err := syscall.Statfs(path, &hs); err != nil {
		st.Errno = int(errnoOf(err))
	} else {
		st = FSStat{Type: hs.Type, Bsize: hs.Bsize, Blocks: hs.Blocks, Bfree: hs.Bfree, Bavail: hs.Bavail,
			Files: hs.Files, Ffree: hs.Ffree, Namelen: hs.Namelen, Frsize: hs.Frsize, Flags: hs.Flags}
	}
	if r.in.Statfs == nil {
		r.in.Statfs = map[string]FSStat{}
	}
	r.in.Statfs[path] = st
	return st
}

// fillStatfs sets the fields of the Statfs_t (of type rt) at p; the
// others (Fsid, Spare) stay as they are.
func (t *thread) fillStatfs(p Pointer, rt *RType, st FSStat) {
	if rt == nil {
		return
	}
	for _, f := range []struct {
		name string
		v    uint64
	}{{"Type", uint64(st.Type)}, {"Bsize", uint64(st.Bsize)}, {"Blocks", st.Blocks}, {"Bfree", st.Bfree},
		{"Bavail", st.Bavail}, {"Files", st.Files}, {"Ffree", st.Ffree}, {"Namelen", uint64(st.Namelen)},
		{"Frsize", uint64(st.Frsize)}, {"Flags", uint64(st.Flags)}} {
		off, ft, ok := t.m.testField(rt, f.name)
		if !ok {
			continue
		}
		if b, ok := ft.T.Underlying().(*types.Basic); ok {
			t.setCell(Pointer{Obj: p.Obj, Off: p.Off + off}, 0, intOfKind(b.Kind(), f.v))
		}
	}
}
