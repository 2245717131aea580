package vm

// Natives of package os that are not the OS boundary: its page size, and
// the initializer of package os, whose source is not interpreted (it is
// the OS boundary): the error variables that alias package io/fs's (run
// from source, initialized before os) get fs's values, so that
// errors.Is(err, os.ErrClosed) and a comparison with os.ErrNotExist see
// the errors fs and the program return.

func init() {
	def("os.init", osInit)
	def("os.Getpagesize", osGetpagesize)
	def("syscall.Getpagesize", osGetpagesize)
}

// osGetpagesize is os.Getpagesize and syscall.Getpagesize: the page size of
// amd64 Linux, a constant of the machine rather than an input (ristretto's
// buffers are sized by it).
func osGetpagesize(t *thread, args []Value) (Value, ctl) { return 4096, ctlNext }

// osErrorsFromFS names the variables of os that are the same-named
// variables of io/fs.
var osErrorsFromFS = []string{"ErrInvalid", "ErrPermission", "ErrExist", "ErrNotExist", "ErrClosed"}

// osInit is os's package initializer. The initializers of a stripped
// package do not call those of its imports, so it runs io/fs's first
// (idempotent, as every package initializer).
func osInit(t *thread, args []Value) (Value, ctl) {
	fsInit := t.m.pkgFunc("io/fs", "init")
	if fsInit == nil {
		return nil, ctlNext
	}
	return nil, t.callCont(t.g.top, t.m.funcValue(fsInit), nil, func(t *thread, _ Value) ctl {
		for _, name := range osErrorsFromFS {
			dst, ok := t.m.globalVar("os", name)
			src, ok2 := t.m.globalVar("io/fs", name)
			if ok && ok2 {
				t.setCell(dst, 0, t.cell(src, 0))
			}
		}
		return t.ret(t.g.top, nil)
	})
}
