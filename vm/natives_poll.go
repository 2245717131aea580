package vm

import "syscall"

// Natives of internal/poll, internal/syscall/unix and internal/testlog
// under package os (which runs from its source, as do internal/poll and
// internal/testlog):
//
//   - internal/poll's fdMutex counts the references to a descriptor and
//     serializes its reads and writes with atomic operations and runtime
//     semaphores. A file operation is not a scheduling point (files.go), so
//     no goroutine ever finds another inside one: the natives update the
//     same state word without atomics (each still orders the operations
//     on the descriptor for the race detector). The poller is not used: a
//     VM descriptor never blocks.
//   - internal/syscall/unix's calls relative to a directory descriptor
//     (RemoveAll's), and Fcntl's F_GETFL and F_DUPFD_CLOEXEC.
//   - internal/testlog.Logger: no test log is installed (os calls it on
//     every Open and Getenv; its atomic load would be a scheduling point).

// The bits of fdMutex's state word (internal/poll/fd_mutex.go).
const (
	fdmClosed  = 1 << 0
	fdmRLock   = 1 << 1
	fdmWLock   = 1 << 2
	fdmRef     = 1 << 3
	fdmRefMask = (1<<20 - 1) << 3
)

func init() {
	def("(*internal/poll.fdMutex).incref", pollFdMutexIncref)
	def("(*internal/poll.fdMutex).increfAndClose", pollFdMutexIncrefAndClose)
	def("(*internal/poll.fdMutex).decref", pollFdMutexDecref)
	// an example's output is compared with its comment: taking a
	// descriptor's write lock (os.Stdout's, for a print) is then a
	// scheduling point dependent with every other, so that the order of
	// two goroutines' prints is explored (example.go)
	rw := defVisible("(*internal/poll.fdMutex).rwlock", pollFdMutexRwlock)
	rw.local = func(t *thread, args []Value) bool { return t.s.entry != EntryExample || fdLockBit(args) != fdmWLock }
	def("(*internal/poll.fdMutex).rwunlock", pollFdMutexRwunlock)
	def("(*internal/poll.pollDesc).init", pollDescInit)
	def("internal/poll.runtime_Semacquire", pollSemacquire)
	def("internal/poll.runtime_Semrelease", pollSemrelease)
	def("internal/poll.CopyFileRange", pollNotHandled)
	def("internal/poll.Splice", pollNotHandled)
	def("internal/poll.SendFile", pollSendFileNotHandled)
	def("internal/syscall/unix.Fcntl", unixFcntl)
	def("internal/syscall/unix.Unlinkat", unixUnlinkat)
	def("internal/syscall/unix.Openat", unixOpenat)
	def("internal/syscall/unix.Fstatat", unixFstatat)
	def("internal/syscall/unix.Mkdirat", unixMkdirat)
	def("internal/testlog.Logger", testlogLogger)
}

// fdMutexOp reads the state word at args[0], lets op change it and
// stores it; the operation orders the descriptor's users for the race
// detector as fdMutex's atomics do.
func (t *thread) fdMutexOp(args []Value, op func(st uint64) (uint64, bool)) (Value, ctl) {
	p := ptrArg(args[0])
	if p.Obj == 0 {
		return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	t.raceAcquire(p)
	st, ok := op(toUint64(t.cell(p, 0)))
	t.raceRelease(p)
	t.setCell(p, 0, st)
	return ok, ctlNext
}

func pollFdMutexIncref(t *thread, args []Value) (Value, ctl) {
	return t.fdMutexOp(args, func(st uint64) (uint64, bool) {
		if st&fdmClosed != 0 {
			return st, false
		}
		return st + fdmRef, true
	})
}

func pollFdMutexIncrefAndClose(t *thread, args []Value) (Value, ctl) {
	return t.fdMutexOp(args, func(st uint64) (uint64, bool) {
		if st&fdmClosed != 0 {
			return st, false
		}
		return (st | fdmClosed) + fdmRef, true
	})
}

func pollFdMutexDecref(t *thread, args []Value) (Value, ctl) {
	if st := toUint64(t.cell(ptrArg(args[0]), 0)); st&fdmRefMask == 0 {
		return nil, t.stringPanic("inconsistent poll.fdMutex")
	}
	return t.fdMutexOp(args, func(st uint64) (uint64, bool) {
		st -= fdmRef
		return st, st&(fdmClosed|fdmRefMask) == fdmClosed
	})
}

// fdLockBit is the bit of a read (args[1] true) or write lock.
func fdLockBit(args []Value) uint64 {
	if b, _ := args[1].(bool); b {
		return fdmRLock
	}
	return fdmWLock
}

func pollFdMutexRwlock(t *thread, args []Value) (Value, ctl) {
	bit := fdLockBit(args)
	if t.s.entry == EntryExample && bit == fdmWLock {
		t.s.last.Op = "write lock of a descriptor"
		t.touch(AllObjects, true)
	}
	if st := toUint64(t.cell(ptrArg(args[0]), 0)); st&fdmClosed == 0 && st&bit != 0 {
		// cannot happen: no scheduling point inside a file operation
		return nil, t.unsupported(t.g.top, "a file operation waiting for another on the same descriptor")
	}
	return t.fdMutexOp(args, func(st uint64) (uint64, bool) {
		if st&fdmClosed != 0 {
			return st, false
		}
		return (st | bit) + fdmRef, true
	})
}

func pollFdMutexRwunlock(t *thread, args []Value) (Value, ctl) {
	bit := fdLockBit(args)
	if st := toUint64(t.cell(ptrArg(args[0]), 0)); st&bit == 0 || st&fdmRefMask == 0 {
		return nil, t.stringPanic("inconsistent poll.fdMutex")
	}
	return t.fdMutexOp(args, func(st uint64) (uint64, bool) {
		st = (st &^ bit) - fdmRef
		return st, st&(fdmClosed|fdmRefMask) == fdmClosed
	})
}

// pollDescInit is (*internal/poll.pollDesc).init: the descriptor is not
// registered with a poller (its runtime context stays 0, which every
// pollDesc method treats as "not polled").
func pollDescInit(t *thread, args []Value) (Value, ctl) { return Iface{}, ctlNext }

// pollSemacquire is internal/poll.runtime_Semacquire: FD.Close waits on
// the semaphore that the descriptor's last reference released.
func pollSemacquire(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	n := toUint64(t.cell(p, 0))
	if n == 0 {
		return nil, t.unsupported(t.g.top, "a file's Close waiting for an operation in progress")
	}
	t.setCell(p, 0, uint32(n-1))
	return nil, ctlNext
}

// pollSemrelease is internal/poll.runtime_Semrelease.
func pollSemrelease(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	t.setCell(p, 0, uint32(toUint64(t.cell(p, 0))+1))
	return nil, ctlNext
}

// pollNotHandled is internal/poll.CopyFileRange and Splice: the kernel's
// copy is not used; io.Copy copies through Read and Write.
func pollNotHandled(t *thread, args []Value) (Value, ctl) {
	return Tuple{int64(0), false, Iface{}}, ctlNext
}

// pollSendFileNotHandled is internal/poll.SendFile (its results in another
// order).
func pollSendFileNotHandled(t *thread, args []Value) (Value, ctl) {
	return Tuple{int64(0), Iface{}, false}, ctlNext
}

// unixFcntl is internal/syscall/unix.Fcntl for F_GETFL (the open flags)
// and F_DUPFD_CLOEXEC (a new descriptor of the same file).
func unixFcntl(t *thread, args []Value) (Value, ctl) {
	fd, cmd := toInt(args[0]), toInt(args[1])
	f := t.s.fileAt(fd)
	std := fd >= 0 && fd < firstFD
	if f == nil && !std {
		return t.intErr(0, syscall.EBADF), ctlNext
	}
	switch cmd {
	case syscall.F_GETFL:
		if std {
			return Tuple{syscall.O_RDWR, Iface{}}, ctlNext
		}
		return Tuple{f.flags, Iface{}}, ctlNext
	case syscall.F_DUPFD_CLOEXEC, syscall.F_DUPFD:
		if std {
			return t.intErr(0, syscall.EINVAL), ctlNext
		}
		return Tuple{t.s.newFD(f), Iface{}}, ctlNext
	}
	return t.intErr(0, syscall.ENOSYS), ctlNext
}

func unixUnlinkat(t *thread, args []Value) (Value, ctl) {
	path, e := t.hostPath(toInt(args[0]), args[1].(string))
	if e == 0 {
		e = t.remove(path, toInt(args[2])&0x200 != 0) // AT_REMOVEDIR
	}
	return t.errnoValue(e), ctlNext
}

func unixOpenat(t *thread, args []Value) (Value, ctl) {
	path, e := t.hostPath(toInt(args[0]), args[1].(string))
	if e != 0 {
		return t.intErr(0, e), ctlNext
	}
	fd, e := t.openFile(path, toInt(args[2]), uint32(toUint64(args[3])))
	return t.intErr(fd, e), ctlNext
}

func unixFstatat(t *thread, args []Value) (Value, ctl) {
	path, e := t.hostPath(toInt(args[0]), args[1].(string))
	if e != 0 {
		return t.errnoValue(e), ctlNext
	}
	return t.statResult(path, ptrArg(args[2]), toInt(args[3])&0x100 != 0), ctlNext // AT_SYMLINK_NOFOLLOW
}

func unixMkdirat(t *thread, args []Value) (Value, ctl) {
	path, e := t.hostPath(toInt(args[0]), args[1].(string))
	if e == 0 {
		e = t.mkdir(path, uint32(toUint64(args[2])))
	}
	return t.errnoValue(e), ctlNext
}

// testlogLogger is internal/testlog.Logger: none is installed.
func testlogLogger(t *thread, args []Value) (Value, ctl) { return Iface{}, ctlNext }
