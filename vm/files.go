package vm

import (
	"hash/fnv"
	"os"
	"path/filepath"
	"syscall"
)

// The program's file system. Package os runs from its source down to
// package syscall, whose file calls are natives (natives_syscall.go).
// Files are read from the real file system (a test's testdata, fixtures,
// the files of the module); what the program writes — files it creates,
// writes, truncates, renames or removes, directories it makes or removes,
// symbolic links it makes, the working directory it moves to — is kept
// in the state (files_overlay.go) over the real files, which are never
// changed. A search abandons runs and resumes others from snapshots:
// were writes made on the real file system, a resumed run would see the
// files of runs that never happened in its past (a directory a later
// cleanup removed, a file a sibling interleaving wrote), and report
// failures no execution of the program has. Kept in the state, each run
// sees exactly the files its own execution wrote, and its replay too.
//
// Descriptors are virtual: each names a path, the open flags and an
// offset, all in the state. Descriptors 0, 1 and 2 are the standard
// streams: reading 0 gives end of file, writing 1 and 2 is the program's
// output. File operations are not scheduling points.

// vfile is an open virtual descriptor; it is never changed in place.
type vfile struct {
	path  string // absolute, clean
	flags int    // the open flags, without O_CREAT, O_EXCL and O_TRUNC
	off   int64  // the file offset (a directory's: the byte offset in its entries)
	dir   bool
}

// firstFD is the lowest descriptor the program's files get.
const firstFD = 3

// fileAt returns the open descriptor fd, or nil.
func (s *State) fileAt(fd int) *vfile {
	i := fd - firstFD
	if i < 0 || i >= len(s.files) {
		return nil
	}
	return s.files[i]
}

// setFile sets descriptor fd (nil: closes it), copying the table.
func (s *State) setFile(fd int, f *vfile) {
	i := fd - firstFD
	n := len(s.files)
	if i >= n {
		n = i + 1
	}
	files := make([]*vfile, n)
	copy(files, s.files)
	files[i] = f
	for len(files) > 0 && files[len(files)-1] == nil {
		files = files[:len(files)-1]
	}
	s.files = files
}

// newFD gives f the lowest free descriptor.
func (s *State) newFD(f *vfile) int {
	fd := firstFD
	for s.fileAt(fd) != nil {
		fd++
	}
	s.setFile(fd, f)
	return fd
}

// hashFiles adds the open descriptors and the written files to a state
// hash.
func (s *State) hashFiles(h *hasher) {
	for i, f := range s.files {
		if f == nil {
			continue
		}
		h.int(int64(i + firstFD))
		h.str(f.path)
		h.int(int64(f.flags))
		h.int(f.off)
	}
	if s.fs != nil {
		h.u64(s.fs.digest)
		h.str(s.fs.cwd)
	}
}

// workDir is the program's working directory: the directory of the package
// under test, as go test runs a test binary (recorded: Getwd). The first
// root with files names it: a directory of external tests only
// (pelletier/go-toml's benchmark) has a first root without any, and its
// tests read their files from there all the same.
func (m *Machine) workDir() string {
	return m.osIn.value(func(in *OSInputs) **string { return &in.Getwd }, func() string {
		for _, p := range m.prog.Pkgs {
			if len(p.GoFiles) > 0 {
				return filepath.Dir(p.GoFiles[0])
			}
		}
		wd, _ := os.Getwd()
		return wd
	})
}

// atFDCWD is Linux's AT_FDCWD.
const atFDCWD = -100

// hostPath resolves a path of the program against its working directory,
// or against the directory of descriptor dirfd (AT_FDCWD: the working
// directory).
func (t *thread) hostPath(dirfd int, p string) (string, syscall.Errno) {
	if p == "" {
		return "", syscall.ENOENT
	}
	switch {
	case filepath.IsAbs(p):
		p = filepath.Clean(p)
	case dirfd == atFDCWD:
		p = filepath.Join(t.workDir(), p)
	default:
		f := t.s.fileAt(dirfd)
		if f == nil {
			return "", syscall.EBADF
		}
		p = filepath.Join(f.path, p)
	}
	// through the directories that are symbolic links the program made
	return t.followLinks(p, false)
}

// openFile opens path as the program asked and returns a virtual
// descriptor.
func (t *thread) openFile(path string, flags int, perm uint32) (int, syscall.Errno) {
	if n := t.s.node(path); n != nil && n.link != "" {
		if flags&syscall.O_NOFOLLOW != 0 {
			return -1, syscall.ELOOP
		}
		p, e := t.followLinks(path, true) // a file created through a link is its target
		if e != 0 {
			return -1, e
		}
		path = p
	}
	n, e := t.stat(path, true)
	exists := e == 0
	if e != 0 && e != syscall.ENOENT {
		return -1, e
	}
	write := flags&syscall.O_ACCMODE != syscall.O_RDONLY
	switch {
	case exists && flags&syscall.O_CREAT != 0 && flags&syscall.O_EXCL != 0:
		return -1, syscall.EEXIST
	case !exists && flags&syscall.O_CREAT == 0:
		return -1, syscall.ENOENT
	case !exists:
		if e := t.needDir(filepath.Dir(path)); e != 0 {
			return -1, e
		}
		t.putNode(path, &fsNode{mode: perm &^ 0o022, mtime: t.s.clock})
		n = &fsNode{}
	case n.dir && (write || flags&syscall.O_TRUNC != 0):
		return -1, syscall.EISDIR
	case write && n.mode&0o200 == 0 && os.Getuid() != 0:
		return -1, syscall.EACCES
	case !n.dir && flags&syscall.O_DIRECTORY != 0:
		return -1, syscall.ENOTDIR
	case flags&syscall.O_TRUNC != 0 && write:
		if e := t.truncate(path, 0); e != 0 {
			return -1, e
		}
	}
	f := &vfile{path: path, flags: flags &^ (syscall.O_CREAT | syscall.O_EXCL | syscall.O_TRUNC), dir: n.dir}
	return t.s.newFD(f), 0
}

// readFile reads into b at f's offset (or at off when off >= 0), moving
// the offset when it was used.
func (t *thread) readFile(fd int, b []byte, off int64) (int, syscall.Errno) {
	f := t.s.fileAt(fd)
	if f == nil || f.flags&syscall.O_ACCMODE == syscall.O_WRONLY {
		return -1, syscall.EBADF
	}
	if f.dir {
		return -1, syscall.EISDIR
	}
	at := f.off
	if off >= 0 {
		at = off
	}
	n, e := t.readAt(f.path, b, at)
	if e != 0 {
		return -1, e
	}
	if off < 0 {
		nf := *f
		nf.off += int64(n)
		t.s.setFile(fd, &nf)
	}
	return n, 0
}

// writeFile writes b at f's offset (at the end in append mode, or at off
// when off >= 0), moving the offset when it was used.
func (t *thread) writeFile(fd int, b []byte, off int64) (int, syscall.Errno) {
	f := t.s.fileAt(fd)
	if f == nil || f.flags&syscall.O_ACCMODE == syscall.O_RDONLY {
		return -1, syscall.EBADF
	}
	at := f.off
	switch {
	case off >= 0:
		at = off
	case f.flags&syscall.O_APPEND != 0:
		n, e := t.stat(f.path, true)
		if e != 0 {
			return -1, e
		}
		at = n.size()
	}
	end, e := t.writeAt(f.path, b, at)
	if e != 0 {
		return -1, e
	}
	if off < 0 {
		nf := *f
		nf.off = end
		t.s.setFile(fd, &nf)
	}
	return len(b), 0
}

// readDirent reads the directory entries of descriptor fd (Linux's
// getdents64 records) from its offset into b: whole records only.
func (t *thread) readDirent(fd int, b []byte) (int, syscall.Errno) {
	f := t.s.fileAt(fd)
	if f == nil {
		return -1, syscall.EBADF
	}
	if !f.dir {
		return -1, syscall.ENOTDIR
	}
	all, e := t.direntBytes(f.path)
	if e != 0 {
		return -1, e
	}
	start := int(f.off)
	if start > len(all) {
		start = len(all)
	}
	end := start
	for end+18 <= len(all) {
		reclen := int(all[end+16]) | int(all[end+17])<<8 // d_reclen, little endian
		if reclen == 0 || end+reclen-start > len(b) || end+reclen > len(all) {
			break
		}
		end += reclen
	}
	if end == start && start < len(all) {
		return -1, syscall.EINVAL // the buffer holds no whole record
	}
	copy(b, all[start:end])
	nf := *f
	nf.off = int64(end)
	t.s.setFile(fd, &nf)
	return end - start, 0
}

// seekFile moves the offset of descriptor fd.
func (t *thread) seekFile(fd int, offset int64, whence int) (int64, syscall.Errno) {
	f := t.s.fileAt(fd)
	if f == nil {
		return -1, syscall.EBADF
	}
	var at int64
	switch whence {
	case 0:
		at = offset
	case 1:
		at = f.off + offset
	case 2:
		n, e := t.stat(f.path, true)
		if e != 0 {
			return -1, e
		}
		at = n.size() + offset
	default:
		return -1, syscall.EINVAL
	}
	if at < 0 {
		return -1, syscall.EINVAL
	}
	nf := *f
	nf.off = at
	t.s.setFile(fd, &nf)
	return at, 0
}

// errnoOf is the errno of a host error (EIO when it is not one).
func errnoOf(err error) syscall.Errno {
	if e, ok := err.(syscall.Errno); ok {
		return e
	}
	return syscall.EIO
}

// inodeOf is the inode number of a file the program wrote (by its path).
func inodeOf(path string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(path))
	return h.Sum64() | 1
}
