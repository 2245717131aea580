package vm

import (
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// The files a run wrote, kept in its state over the real file system
// (files.go). A path in the overlay shadows the host's: a file with its
// contents, a directory, or a removed path. The overlay is shared between
// states and never changed in place: each change copies its map.

// fsNode is a file or directory of the overlay, or what stat found on the
// host (host set).
type fsNode struct {
	data  string // a file's contents
	dir   bool
	gone  bool   // removed: the path no longer exists
	fresh bool   // a directory the program made: nothing of the host's below it
	link  string // a symbolic link the program made: its target, as given
	mode  uint32 // permission bits
	mtime int64  // virtual time of the last change (State.clock)
	host  *syscall.Stat_t
}

// size is the file's size.
func (n *fsNode) size() int64 {
	if n.host != nil {
		return n.host.Size
	}
	return int64(len(n.data))
}

// vfs is the overlay: absolute clean paths to nodes, and a digest of them
// for state hashes; and the working directory the program moved to
// (os.Chdir; "": the package's directory, Machine.workDir).
type vfs struct {
	nodes  map[string]*fsNode
	digest uint64
	cwd    string
}

// node returns the overlay's node of path (nil: none).
func (s *State) node(path string) *fsNode {
	if s.fs == nil {
		return nil
	}
	return s.fs.nodes[path]
}

// putNode sets the overlay's node of path.
func (t *thread) putNode(path string, n *fsNode) {
	nodes := map[string]*fsNode{}
	if t.s.fs != nil {
		for k, v := range t.s.fs.nodes {
			nodes[k] = v
		}
	}
	nodes[path] = n
	var d uint64
	for k, v := range nodes {
		h := fnv.New64a()
		h.Write([]byte(k))
		h.Write([]byte{0})
		h.Write([]byte(v.data))
		h.Write([]byte{0})
		h.Write([]byte(v.link))
		var flags byte
		if v.dir {
			flags |= 1
		}
		if v.gone {
			flags |= 2
		}
		if v.fresh {
			flags |= 4
		}
		h.Write([]byte{flags, byte(v.mode), byte(v.mode >> 8), byte(v.mtime), byte(v.mtime >> 8), byte(v.mtime >> 16), byte(v.mtime >> 24)})
		d += h.Sum64() // order-independent
	}
	cwd := ""
	if t.s.fs != nil {
		cwd = t.s.fs.cwd
	}
	t.s.fs = &vfs{nodes: nodes, digest: d, cwd: cwd}
}

// workDir is the program's working directory: where it moved to with
// os.Chdir, else the package's directory.
func (t *thread) workDir() string {
	if t.s.fs != nil && t.s.fs.cwd != "" {
		return t.s.fs.cwd
	}
	return t.m.workDir()
}

// chdir makes path, a directory, the working directory.
func (t *thread) chdir(path string) syscall.Errno {
	path, e := t.followLinks(path, true)
	if e != 0 {
		return e
	}
	if e := t.needDir(path); e != 0 {
		return e
	}
	fs := &vfs{}
	if t.s.fs != nil {
		*fs = *t.s.fs // the nodes are shared: never changed in place
	}
	fs.cwd = path
	t.s.fs = fs
	return 0
}

// maxLinks is how many symbolic links a path's lookup follows before it
// fails with ELOOP, as Linux's.
const maxLinks = 40

// linkTarget is the path a symbolic link at path names.
func linkTarget(path, target string) string {
	if filepath.IsAbs(target) {
		return filepath.Clean(target)
	}
	return filepath.Join(filepath.Dir(path), target)
}

// followLinks resolves the symbolic links the program made on the way to
// path: each directory of it, and the last element too when last is set.
// (The host's own links are the host's to follow.)
func (t *thread) followLinks(path string, last bool) (string, syscall.Errno) {
	if t.s.fs == nil {
		return path, 0
	}
	for hops := 0; ; hops++ {
		changed := false
		for i := 1; i <= len(path); i++ {
			if i < len(path) && path[i] != '/' {
				continue
			}
			if i == len(path) && !last {
				break
			}
			n := t.s.node(path[:i])
			if n == nil || n.link == "" || n.gone {
				continue
			}
			if hops >= maxLinks {
				return "", syscall.ELOOP
			}
			path = filepath.Join(linkTarget(path[:i], n.link), path[i:])
			changed = true
			break
		}
		if !changed {
			return path, 0
		}
	}
}

// stat finds path: in the overlay, else on the host (follow: through a
// final symbolic link).
func (t *thread) stat(path string, follow bool) (*fsNode, syscall.Errno) {
	if n := t.s.node(path); n != nil {
		if n.gone {
			return nil, syscall.ENOENT
		}
		if n.link != "" && follow {
			p, e := t.followLinks(path, true)
			if e != 0 {
				return nil, e
			}
			return t.stat(p, true)
		}
		return n, 0
	}
	for p := filepath.Dir(path); ; p = filepath.Dir(p) {
		if a := t.s.node(p); a != nil {
			switch {
			case a.gone:
				return nil, syscall.ENOENT
			case !a.dir:
				return nil, syscall.ENOTDIR
			case a.fresh:
				return nil, syscall.ENOENT
			}
		}
		if p == "/" || p == "." {
			break
		}
	}
	var st syscall.Stat_t
	var err error
	if follow {
		err = syscall.Stat(path, &st)
	} else {
		err = syscall.Lstat(path, &st)
	}
	if err != nil {
		return nil, errnoOf(err)
	}
	return &fsNode{dir: st.Mode&syscall.S_IFMT == syscall.S_IFDIR, mode: st.Mode & 0o7777, host: &st}, 0
}

// needDir checks that dir exists and is a directory.
func (t *thread) needDir(dir string) syscall.Errno {
	n, e := t.stat(dir, true)
	if e != 0 {
		return e
	}
	if !n.dir {
		return syscall.ENOTDIR
	}
	return 0
}

// copyUp returns a copy of path's node for a change, with a host file's
// contents.
func (t *thread) copyUp(path string) (*fsNode, syscall.Errno) {
	n, e := t.stat(path, true)
	if e != 0 {
		return nil, e
	}
	if n.host == nil {
		c := *n
		return &c, 0
	}
	c := &fsNode{dir: n.dir, mode: n.mode, mtime: t.s.clock}
	if !n.dir {
		if n.host.Mode&syscall.S_IFMT != syscall.S_IFREG {
			return nil, syscall.EINVAL // a device, pipe or socket is not modelled
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, syscall.EIO
		}
		c.data = string(b)
	}
	return c, 0
}

// readAt reads the file path at offset at.
func (t *thread) readAt(path string, b []byte, at int64) (int, syscall.Errno) {
	n, e := t.stat(path, true)
	if e != 0 {
		return 0, e
	}
	if n.host == nil {
		if at >= int64(len(n.data)) {
			return 0, 0
		}
		return copy(b, n.data[at:]), 0
	}
	hfd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return 0, errnoOf(err)
	}
	defer syscall.Close(hfd)
	k, err := syscall.Pread(hfd, b, at)
	if err != nil {
		return 0, errnoOf(err)
	}
	return k, 0
}

// writeAt writes b into the file path at offset at and returns the offset
// after it.
func (t *thread) writeAt(path string, b []byte, at int64) (int64, syscall.Errno) {
	n, e := t.copyUp(path)
	if e != 0 {
		return 0, e
	}
	if n.dir {
		return 0, syscall.EISDIR
	}
	data := n.data
	if int64(len(data)) < at {
		data += strings.Repeat("\x00", int(at)-len(data))
	}
	end := at + int64(len(b))
	rest := ""
	if int64(len(data)) > end {
		rest = data[end:]
	}
	n.data = data[:at] + string(b) + rest
	n.mtime = t.s.clock
	t.putNode(path, n)
	return end, 0
}

// truncate sets the size of the file path.
func (t *thread) truncate(path string, size int64) syscall.Errno {
	if size < 0 {
		return syscall.EINVAL
	}
	path, e := t.followLinks(path, true)
	if e != 0 {
		return e
	}
	n, e := t.copyUp(path)
	if e != 0 {
		return e
	}
	if n.dir {
		return syscall.EISDIR
	}
	if int64(len(n.data)) > size {
		n.data = n.data[:size]
	} else {
		n.data += strings.Repeat("\x00", int(size)-len(n.data))
	}
	n.mtime = t.s.clock
	t.putNode(path, n)
	return 0
}

// dirEntries lists the directory dir: the host's entries and the
// overlay's, sorted by name, with their dirent types.
func (t *thread) dirEntries(dir string) (names []string, types []byte, e syscall.Errno) {
	n, e := t.stat(dir, true)
	if e != 0 {
		return nil, nil, e
	}
	if !n.dir {
		return nil, nil, syscall.ENOTDIR
	}
	typ := map[string]byte{}
	if !n.fresh {
		if des, err := os.ReadDir(dir); err == nil {
			for _, de := range des {
				typ[de.Name()] = direntType(de.Type())
			}
		}
	}
	if t.s.fs != nil {
		for p, c := range t.s.fs.nodes {
			if filepath.Dir(p) != dir || p == dir {
				continue
			}
			name := filepath.Base(p)
			switch {
			case c.gone:
				delete(typ, name)
			case c.dir:
				typ[name] = syscall.DT_DIR
			case c.link != "":
				typ[name] = syscall.DT_LNK
			default:
				typ[name] = syscall.DT_REG
			}
		}
	}
	for name := range typ {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		types = append(types, typ[name])
	}
	return names, types, 0
}

// direntType is the dirent type of a host entry's mode.
func direntType(m os.FileMode) byte {
	switch {
	case m.IsDir():
		return syscall.DT_DIR
	case m&os.ModeSymlink != 0:
		return syscall.DT_LNK
	case m.IsRegular():
		return syscall.DT_REG
	}
	return syscall.DT_UNKNOWN
}

// direntBytes is the listing of dir as getdents64 records.
func (t *thread) direntBytes(dir string) ([]byte, syscall.Errno) {
	names, types, e := t.dirEntries(dir)
	if e != 0 {
		return nil, e
	}
	var b []byte
	for i, name := range names {
		reclen := (19 + len(name) + 1 + 7) &^ 7
		rec := make([]byte, reclen)
		ino := inodeOf(filepath.Join(dir, name))
		for k := 0; k < 8; k++ {
			rec[k] = byte(ino >> (8 * k))
			rec[8+k] = byte(uint64(i+1) >> (8 * k))
		}
		rec[16], rec[17] = byte(reclen), byte(reclen>>8)
		rec[18] = types[i]
		copy(rec[19:], name)
		b = append(b, rec...)
	}
	return b, 0
}

// mkdir makes the directory path.
func (t *thread) mkdir(path string, mode uint32) syscall.Errno {
	if _, e := t.stat(path, false); e == 0 {
		return syscall.EEXIST
	}
	if e := t.needDir(filepath.Dir(path)); e != 0 {
		return e
	}
	t.putNode(path, &fsNode{dir: true, fresh: true, mode: mode &^ 0o022, mtime: t.s.clock})
	return 0
}

// remove removes the file (dir false: unlink) or empty directory path.
func (t *thread) remove(path string, dir bool) syscall.Errno {
	n, e := t.stat(path, false)
	if e != 0 {
		return e
	}
	switch {
	case dir && !n.dir:
		return syscall.ENOTDIR
	case !dir && n.dir:
		return syscall.EISDIR
	case dir:
		names, _, e := t.dirEntries(path)
		if e != 0 {
			return e
		}
		if len(names) > 0 {
			return syscall.ENOTEMPTY
		}
	}
	if e := t.needWritableParent(path); e != 0 {
		return e
	}
	t.putNode(path, &fsNode{gone: true})
	return 0
}

// needWritableParent checks that path's directory exists.
func (t *thread) needWritableParent(path string) syscall.Errno {
	return t.needDir(filepath.Dir(path))
}

// rename moves a file, or a directory the program made, to another path.
func (t *thread) rename(from, to string) syscall.Errno {
	n, e := t.stat(from, false)
	if e != 0 {
		return e
	}
	if e := t.needDir(filepath.Dir(to)); e != 0 {
		return e
	}
	if from == to {
		return 0
	}
	if m, e := t.stat(to, false); e == 0 {
		if m.dir && !n.dir {
			return syscall.EISDIR
		}
		if !m.dir && n.dir {
			return syscall.ENOTDIR
		}
		if m.dir {
			if names, _, _ := t.dirEntries(to); len(names) > 0 {
				return syscall.ENOTEMPTY
			}
		}
	}
	if n.dir {
		if n.host != nil || !n.fresh {
			return syscall.EXDEV // a directory of the host's: not moved
		}
		if strings.HasPrefix(to, from+"/") {
			return syscall.EINVAL
		}
		var moved []string
		for p := range t.s.fs.nodes {
			if strings.HasPrefix(p, from+"/") {
				moved = append(moved, p)
			}
		}
		sort.Strings(moved)
		for _, p := range moved {
			c := t.s.node(p)
			t.putNode(to+strings.TrimPrefix(p, from), c)
			t.putNode(p, &fsNode{gone: true})
		}
		t.putNode(to, n)
		t.putNode(from, &fsNode{gone: true})
		return 0
	}
	c := n
	if n.link == "" {
		if c, e = t.copyUp(from); e != 0 {
			return e
		}
	}
	t.putNode(to, c)
	t.putNode(from, &fsNode{gone: true})
	return 0
}

// symlink makes path a symbolic link to target.
func (t *thread) symlink(target, path string) syscall.Errno {
	if _, e := t.stat(path, false); e == 0 {
		return syscall.EEXIST
	}
	if e := t.needDir(filepath.Dir(path)); e != 0 {
		return e
	}
	t.putNode(path, &fsNode{link: target, mode: 0o777, mtime: t.s.clock})
	return 0
}

// chmod sets the permission bits of path.
func (t *thread) chmod(path string, mode uint32) syscall.Errno {
	path, e := t.followLinks(path, true)
	if e != 0 {
		return e
	}
	n, e := t.copyUp(path)
	if e != 0 {
		return e
	}
	n.mode = mode & 0o7777
	t.putNode(path, n)
	return 0
}

// statOf is the Stat_t of a node.
func (t *thread) statOf(path string, n *fsNode) *syscall.Stat_t {
	if n.host != nil {
		return n.host
	}
	st := &syscall.Stat_t{Dev: 0xfe01, Ino: inodeOf(path), Nlink: 1, Mode: syscall.S_IFREG | n.mode,
		Uid: uint32(os.Getuid()), Gid: uint32(os.Getgid()), Size: int64(len(n.data)), Blksize: 4096,
		Blocks: (int64(len(n.data)) + 511) / 512}
	switch {
	case n.dir:
		st.Mode, st.Nlink, st.Size = syscall.S_IFDIR|n.mode, 2, 4096
	case n.link != "":
		st.Mode, st.Size, st.Blocks = syscall.S_IFLNK|0o777, int64(len(n.link)), 0
	}
	ts := syscall.NsecToTimespec(wallTime(0, n.mtime))
	st.Atim, st.Mtim, st.Ctim = ts, ts, ts
	return st
}
