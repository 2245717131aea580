package vm

import (
	"go/types"
	"syscall"
)

// Natives of package syscall: the OS boundary under package os, which runs
// from its source. File calls work on the VM's virtual descriptors over
// the real file system (files.go); the environment is the host's, read once
// per machine and recorded (osinputs.go), with the run's own changes in the
// state. syscall.Errno's methods are natives too (the package is not
// interpreted).

func init() {
	// syscall's initializer does not run (the package is not interpreted)
	for name, fd := range map[string]int{"Stdin": 0, "Stdout": 1, "Stderr": 2} {
		globalInits["syscall."+name] = stdFDInit(fd)
	}
	def("syscall.Open", syscallOpen)
	def("syscall.Read", syscallRead)
	def("syscall.Write", syscallWrite)
	def("syscall.Pread", syscallPread)
	def("syscall.Pwrite", syscallPwrite)
	def("syscall.Close", syscallClose)
	def("syscall.Seek", syscallSeek)
	def("syscall.Fstat", syscallFstat)
	def("syscall.Stat", syscallStat)
	def("syscall.Lstat", syscallLstat)
	def("syscall.ReadDirent", syscallReadDirent)
	def("syscall.Mkdir", syscallMkdir)
	def("syscall.Rmdir", syscallRmdir)
	def("syscall.Unlink", syscallUnlink)
	def("syscall.Rename", syscallRename)
	def("syscall.Readlink", syscallReadlink)
	def("syscall.Symlink", syscallSymlink)
	def("syscall.Chdir", syscallChdir)
	def("syscall.Chmod", syscallChmod)
	def("syscall.Fchmod", syscallFchmod)
	def("syscall.Truncate", syscallTruncate)
	def("syscall.Ftruncate", syscallFtruncate)
	def("syscall.Fsync", syscallFsync)
	def("syscall.SetNonblock", syscallSetNonblock)
	def("syscall.CloseOnExec", syscallCloseOnExec)
	def("syscall.Getwd", syscallGetwd)
	def("syscall.Getenv", syscallGetenv)
	def("syscall.Setenv", syscallSetenv)
	def("syscall.Unsetenv", syscallUnsetenv)
	def("syscall.Environ", syscallEnviron)
	def("syscall.Clearenv", syscallClearenv)
	def("(syscall.Errno).Error", syscallErrnoError)
	def("(syscall.Errno).Is", syscallErrnoIs)
	def("(syscall.Errno).Temporary", syscallErrnoTemporary)
	def("(syscall.Errno).Timeout", syscallErrnoTimeout)
	def("(syscall.Signal).String", syscallSignalString)
	def("(syscall.Signal).Signal", syscallSignalSignal)
}

// stdFDInit sets syscall.Stdin, Stdout or Stderr.
func stdFDInit(fd int) func(m *Machine, o *Object) {
	return func(m *Machine, o *Object) { o.setCell(0, fd) }
}

// errnoValue is e as an error of the program (nil for 0).
func (t *thread) errnoValue(e syscall.Errno) Value {
	if e == 0 {
		return Iface{}
	}
	rt := t.m.namedType("syscall", "Errno")
	if rt == nil {
		return t.newError(e.Error())
	}
	return Iface{T: rt, V: uintptr(e)}
}

// namedType is lookupType, remembered per machine.
func (m *Machine) namedType(pkg, name string) *RType {
	key := pkg + "." + name
	if rt, ok := m.namedTypes.Load(key); ok {
		return rt.(*RType)
	}
	rt := m.lookupType(pkg, name)
	if rt != nil {
		m.namedTypes.Store(key, rt)
	}
	return rt
}

// bytesArg copies a []byte argument out of the VM.
func (t *thread) bytesArg(v Value) []byte {
	sl, _ := v.(Slice)
	return t.s.bytesOf(sl)
}

// fillBytes copies b into the first len(b) bytes of the slice v (a write
// of the program's memory: the race detector sees it).
func (t *thread) fillBytes(v Value, b []byte) {
	sl, _ := v.(Slice)
	if len(b) == 0 || sl.Obj == 0 {
		return
	}
	if t.s.race != nil && t.g.top != nil && t.g.top.fn != nil {
		t.raceAccess(t.g.top, Pointer{Obj: sl.Obj, Off: sl.Off}, len(b), true)
	}
	o := t.s.heap.mut(sl.Obj, t.s.epoch)
	for i, c := range b {
		o.setCell(int(sl.Off)+i, c)
	}
}

// readBytes notes the program's bytes v as read (the race detector).
func (t *thread) readBytes(v Value, n int) {
	sl, _ := v.(Slice)
	if n > 0 && sl.Obj != 0 && t.s.race != nil && t.g.top != nil && t.g.top.fn != nil {
		t.raceAccess(t.g.top, Pointer{Obj: sl.Obj, Off: sl.Off}, n, false)
	}
}

// intErr is the (int, error) result of a call.
func (t *thread) intErr(n int, e syscall.Errno) Value {
	if e != 0 {
		return Tuple{-1, t.errnoValue(e)}
	}
	return Tuple{n, Iface{}}
}

func syscallOpen(t *thread, args []Value) (Value, ctl) {
	path, e := t.hostPath(atFDCWD, args[0].(string))
	if e != 0 {
		return t.intErr(0, e), ctlNext
	}
	fd, e := t.openFile(path, toInt(args[1]), uint32(toUint64(args[2])))
	return t.intErr(fd, e), ctlNext
}

// readInto reads from descriptor fd into the slice v (at off >= 0, or at
// the descriptor's offset).
func (t *thread) readInto(fd int, v Value, off int64) Value {
	sl, _ := v.(Slice)
	if fd == 0 {
		return Tuple{0, Iface{}} // standard input: end of file
	}
	if fd == 1 || fd == 2 {
		return t.intErr(0, syscall.EBADF)
	}
	buf := make([]byte, sl.Len)
	n, e := t.readFile(fd, buf, off)
	if e != 0 {
		return t.intErr(0, e)
	}
	if p, ok := t.m.globalVar("syscall", "ioSync"); ok {
		t.raceAcquire(p) // as syscall.Read does under the race detector
	}
	t.fillBytes(v, buf[:n])
	return Tuple{n, Iface{}}
}

// writeFrom writes the slice v to descriptor fd (at off >= 0, or at the
// descriptor's offset); 1 and 2 are the program's output.
func (t *thread) writeFrom(fd int, v Value, off int64) Value {
	b := t.bytesArg(v)
	t.readBytes(v, len(b))
	if p, ok := t.m.globalVar("syscall", "ioSync"); ok {
		t.raceRelease(p) // as syscall.Write does under the race detector
	}
	if fd == 1 || fd == 2 {
		t.s.write(fd, string(b))
		return Tuple{len(b), Iface{}}
	}
	if fd == 0 {
		return t.intErr(0, syscall.EBADF)
	}
	n, e := t.writeFile(fd, b, off)
	return t.intErr(n, e)
}

func syscallRead(t *thread, args []Value) (Value, ctl) {
	return t.readInto(toInt(args[0]), args[1], -1), ctlNext
}

func syscallWrite(t *thread, args []Value) (Value, ctl) {
	return t.writeFrom(toInt(args[0]), args[1], -1), ctlNext
}

func syscallPread(t *thread, args []Value) (Value, ctl) {
	if toInt64(args[2]) < 0 {
		return t.intErr(0, syscall.EINVAL), ctlNext
	}
	return t.readInto(toInt(args[0]), args[1], toInt64(args[2])), ctlNext
}

func syscallPwrite(t *thread, args []Value) (Value, ctl) {
	if toInt64(args[2]) < 0 {
		return t.intErr(0, syscall.EINVAL), ctlNext
	}
	return t.writeFrom(toInt(args[0]), args[1], toInt64(args[2])), ctlNext
}

func syscallClose(t *thread, args []Value) (Value, ctl) {
	fd := toInt(args[0])
	if fd >= 0 && fd < firstFD {
		return Iface{}, ctlNext // the standard streams stay the VM's
	}
	if t.s.fileAt(fd) == nil {
		return t.errnoValue(syscall.EBADF), ctlNext
	}
	t.s.setFile(fd, nil)
	return Iface{}, ctlNext
}

func syscallSeek(t *thread, args []Value) (Value, ctl) {
	at, e := t.seekFile(toInt(args[0]), toInt64(args[1]), toInt(args[2]))
	if e != 0 {
		return Tuple{int64(-1), t.errnoValue(e)}, ctlNext
	}
	return Tuple{at, Iface{}}, ctlNext
}

// fillStat stores st into the syscall.Stat_t at p.
func (t *thread) fillStat(p Pointer, st *syscall.Stat_t) {
	rt := t.m.namedType("syscall", "Stat_t")
	ts := t.m.namedType("syscall", "Timespec")
	if rt == nil || ts == nil || p.Obj == 0 {
		return
	}
	set := func(base Pointer, typ *RType, name string, u uint64) {
		off, ft, ok := t.m.testField(typ, name)
		if !ok {
			return
		}
		if b, ok := ft.T.Underlying().(*types.Basic); ok {
			t.setCell(Pointer{Obj: base.Obj, Off: base.Off + off}, 0, intOfKind(b.Kind(), u))
		}
	}
	set(p, rt, "Dev", st.Dev)
	set(p, rt, "Ino", st.Ino)
	set(p, rt, "Nlink", st.Nlink)
	set(p, rt, "Mode", uint64(st.Mode))
	set(p, rt, "Uid", uint64(st.Uid))
	set(p, rt, "Gid", uint64(st.Gid))
	set(p, rt, "Rdev", st.Rdev)
	set(p, rt, "Size", uint64(st.Size))
	set(p, rt, "Blksize", uint64(st.Blksize))
	set(p, rt, "Blocks", uint64(st.Blocks))
	for _, tm := range []struct {
		name string
		v    syscall.Timespec
	}{{"Atim", st.Atim}, {"Mtim", st.Mtim}, {"Ctim", st.Ctim}} {
		off, _, ok := t.m.testField(rt, tm.name)
		if !ok {
			continue
		}
		q := Pointer{Obj: p.Obj, Off: p.Off + off}
		set(q, ts, "Sec", uint64(tm.v.Sec))
		set(q, ts, "Nsec", uint64(tm.v.Nsec))
	}
}

// statResult stats a path (lstat: without following a final symbolic
// link) into the Stat_t at p.
func (t *thread) statResult(path string, p Pointer, lstat bool) Value {
	n, e := t.stat(path, !lstat)
	if e != 0 {
		return t.errnoValue(e)
	}
	t.fillStat(p, t.statOf(path, n))
	return Iface{}
}

func syscallFstat(t *thread, args []Value) (Value, ctl) {
	fd := toInt(args[0])
	if fd >= 0 && fd < firstFD {
		var st syscall.Stat_t
		st.Mode = syscall.S_IFCHR | 0o620 // a terminal's
		t.fillStat(ptrArg(args[1]), &st)
		return Iface{}, ctlNext
	}
	f := t.s.fileAt(fd)
	if f == nil {
		return t.errnoValue(syscall.EBADF), ctlNext
	}
	return t.statResult(f.path, ptrArg(args[1]), false), ctlNext
}

func syscallStat(t *thread, args []Value) (Value, ctl) {
	return t.pathCall(args[0], func(p string) syscall.Errno {
		return errnoOfValue(t.statResult(p, ptrArg(args[1]), false))
	}), ctlNext
}

func syscallLstat(t *thread, args []Value) (Value, ctl) {
	return t.pathCall(args[0], func(p string) syscall.Errno {
		return errnoOfValue(t.statResult(p, ptrArg(args[1]), true))
	}), ctlNext
}

// errnoOfValue is the errno of an error value made by errnoValue.
func errnoOfValue(v Value) syscall.Errno {
	if iv, ok := v.(Iface); ok {
		if u, ok := iv.V.(uintptr); ok {
			return syscall.Errno(u)
		}
	}
	return 0
}

func syscallReadDirent(t *thread, args []Value) (Value, ctl) {
	sl, _ := args[1].(Slice)
	buf := make([]byte, sl.Len)
	n, e := t.readDirent(toInt(args[0]), buf)
	if e != 0 {
		return t.intErr(0, e), ctlNext
	}
	t.fillBytes(args[1], buf[:n])
	return Tuple{n, Iface{}}, ctlNext
}

// pathCall runs op on the resolved path of the program's path v.
func (t *thread) pathCall(v Value, op func(string) syscall.Errno) Value {
	path, e := t.hostPath(atFDCWD, v.(string))
	if e == 0 {
		e = op(path)
	}
	return t.errnoValue(e)
}

func syscallMkdir(t *thread, args []Value) (Value, ctl) {
	mode := uint32(toUint64(args[1]))
	return t.pathCall(args[0], func(p string) syscall.Errno { return t.mkdir(p, mode) }), ctlNext
}

func syscallRmdir(t *thread, args []Value) (Value, ctl) {
	return t.pathCall(args[0], func(p string) syscall.Errno { return t.remove(p, true) }), ctlNext
}

func syscallUnlink(t *thread, args []Value) (Value, ctl) {
	return t.pathCall(args[0], func(p string) syscall.Errno { return t.remove(p, false) }), ctlNext
}

func syscallRename(t *thread, args []Value) (Value, ctl) {
	to, e := t.hostPath(atFDCWD, args[1].(string))
	if e != 0 {
		return t.errnoValue(e), ctlNext
	}
	return t.pathCall(args[0], func(p string) syscall.Errno { return t.rename(p, to) }), ctlNext
}

// syscallReadlink is syscall.Readlink: the links the program made
// (files_overlay.go), else the host's.
func syscallReadlink(t *thread, args []Value) (Value, ctl) {
	path, e := t.hostPath(atFDCWD, args[0].(string))
	if e != 0 {
		return t.intErr(0, e), ctlNext
	}
	n, e := t.stat(path, false)
	if e != 0 {
		return t.intErr(0, e), ctlNext
	}
	sl, _ := args[1].(Slice)
	buf := make([]byte, sl.Len)
	var k int
	switch {
	case n.link != "":
		k = copy(buf, n.link) // truncated to the buffer, as readlink(2)
	case n.host == nil:
		return t.intErr(0, syscall.EINVAL), ctlNext
	default:
		var err error
		if k, err = syscall.Readlink(path, buf); err != nil {
			return t.intErr(0, errnoOf(err)), ctlNext
		}
	}
	t.fillBytes(args[1], buf[:k])
	return Tuple{k, Iface{}}, ctlNext
}

// syscallSymlink is syscall.Symlink: a link in the program's files
// (files_overlay.go), not on the host.
func syscallSymlink(t *thread, args []Value) (Value, ctl) {
	target := args[0].(string)
	return t.pathCall(args[1], func(p string) syscall.Errno { return t.symlink(target, p) }), ctlNext
}

func syscallChmod(t *thread, args []Value) (Value, ctl) {
	mode := uint32(toUint64(args[1]))
	return t.pathCall(args[0], func(p string) syscall.Errno { return t.chmod(p, mode) }), ctlNext
}

// fdPath is the path of descriptor fd for the calls that act on the file.
func (t *thread) fdPath(fd int) (string, syscall.Errno) {
	f := t.s.fileAt(fd)
	if f == nil {
		return "", syscall.EBADF
	}
	return f.path, 0
}

func syscallFchmod(t *thread, args []Value) (Value, ctl) {
	p, e := t.fdPath(toInt(args[0]))
	if e == 0 {
		e = t.chmod(p, uint32(toUint64(args[1])))
	}
	return t.errnoValue(e), ctlNext
}

func syscallTruncate(t *thread, args []Value) (Value, ctl) {
	n := toInt64(args[1])
	return t.pathCall(args[0], func(p string) syscall.Errno { return t.truncate(p, n) }), ctlNext
}

func syscallFtruncate(t *thread, args []Value) (Value, ctl) {
	p, e := t.fdPath(toInt(args[0]))
	if e == 0 {
		e = t.truncate(p, toInt64(args[1]))
	}
	return t.errnoValue(e), ctlNext
}

// syscallFsync is syscall.Fsync: every write already went to the host
// file (durability is not modelled).
func syscallFsync(t *thread, args []Value) (Value, ctl) {
	fd := toInt(args[0])
	if fd >= firstFD && t.s.fileAt(fd) == nil {
		return t.errnoValue(syscall.EBADF), ctlNext
	}
	return Iface{}, ctlNext
}

// syscallSetNonblock is syscall.SetNonblock: the VM's descriptors never
// block, so the mode is accepted and ignored.
func syscallSetNonblock(t *thread, args []Value) (Value, ctl) { return Iface{}, ctlNext }

// syscallCloseOnExec is syscall.CloseOnExec: the program starts no process.
func syscallCloseOnExec(t *thread, args []Value) (Value, ctl) { return nil, ctlNext }

func syscallGetwd(t *thread, args []Value) (Value, ctl) {
	return Tuple{t.workDir(), Iface{}}, ctlNext
}

// syscallChdir is syscall.Chdir: the working directory is the state's
// (files_overlay.go), the host process's is not changed.
func syscallChdir(t *thread, args []Value) (Value, ctl) {
	return t.pathCall(args[0], t.chdir), ctlNext
}

func syscallGetenv(t *thread, args []Value) (Value, ctl) {
	v, ok := t.lookupEnv(args[0].(string))
	return Tuple{v, ok}, ctlNext
}

// validEnvKey is the check of syscall.Setenv.
func validEnvKey(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] == '=' || k[i] == 0 {
			return false
		}
	}
	return true
}

func syscallSetenv(t *thread, args []Value) (Value, ctl) {
	k, v := args[0].(string), args[1].(string)
	if !validEnvKey(k) {
		return t.errnoValue(syscall.EINVAL), ctlNext
	}
	for i := 0; i < len(v); i++ {
		if v[i] == 0 {
			return t.errnoValue(syscall.EINVAL), ctlNext
		}
	}
	t.setEnv(k, v, true)
	return Iface{}, ctlNext
}

func syscallUnsetenv(t *thread, args []Value) (Value, ctl) {
	t.setEnv(args[0].(string), "", false)
	return Iface{}, ctlNext
}

func syscallEnviron(t *thread, args []Value) (Value, ctl) {
	env := t.environ()
	vals := make([]Value, len(env))
	for i, kv := range env {
		vals[i] = kv
	}
	return t.newSliceOf(t.m.stringRType(), vals), ctlNext
}

func syscallClearenv(t *thread, args []Value) (Value, ctl) {
	t.setEnv("", "", false)
	return nil, ctlNext
}

func syscallErrnoError(t *thread, args []Value) (Value, ctl) {
	return syscall.Errno(toUint64(args[0])).Error(), ctlNext
}

// syscallSignalString is (syscall.Signal).String: the name in syscall's
// table (a signal is only a number; naming one reaches no OS: go.uber.org/fx
// prints the signal that stopped an app).
func syscallSignalString(t *thread, args []Value) (Value, ctl) {
	return syscall.Signal(toInt64(args[0])).String(), ctlNext
}

// syscallSignalSignal is (syscall.Signal).Signal, the os.Signal marker.
func syscallSignalSignal(t *thread, args []Value) (Value, ctl) { return nil, ctlNext }

func syscallErrnoTemporary(t *thread, args []Value) (Value, ctl) {
	return syscall.Errno(toUint64(args[0])).Temporary(), ctlNext
}

func syscallErrnoTimeout(t *thread, args []Value) (Value, ctl) {
	return syscall.Errno(toUint64(args[0])).Timeout(), ctlNext
}

// syscallErrnoIs is (syscall.Errno).Is: the errors of internal/oserror
// and errors.ErrUnsupported, as syscall maps them.
func syscallErrnoIs(t *thread, args []Value) (Value, ctl) {
	e := syscall.Errno(toUint64(args[0]))
	target, _ := args[1].(Iface)
	pkg, name := "internal/oserror", ""
	switch e {
	case syscall.EACCES, syscall.EPERM:
		name = "ErrPermission"
	case syscall.EEXIST, syscall.ENOTEMPTY:
		name = "ErrExist"
	case syscall.ENOENT:
		name = "ErrNotExist"
	case syscall.ENOSYS, syscall.ENOTSUP:
		pkg, name = "errors", "ErrUnsupported"
	default:
		return false, ctlNext
	}
	p, ok := t.m.globalVar(pkg, name)
	if !ok {
		return false, ctlNext
	}
	v, _ := t.cell(p, 0).(Iface)
	vp, ok1 := v.V.(Pointer)
	tp, ok2 := target.V.(Pointer)
	return ok1 && ok2 && v.T == target.T && vp == tp, ctlNext
}
