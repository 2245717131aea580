package vm

import (
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
)

// t.Setenv and t.TempDir, as package testing implements them: Setenv
// changes the run's environment (osinputs.go) and restores it in a
// cleanup; TempDir makes a new directory among the run's files.

func init() {
	for _, recv := range []string{"(*testing.common)", "(*testing.T)"} {
		def(recv+".Setenv", testSetenv)
		def(recv+".TempDir", testTempDir)
	}
}

// envRestore is the cleanup of t.Setenv: args[0] is {key, previous
// value, whether it was set}.
var envRestore = &nativeFunc{name: "testing.setenvCleanup", fn: func(t *thread, args []Value) (Value, ctl) {
	b := args[0].([]Value)
	t.setEnv(b[0].(string), b[1].(string), b[2].(bool))
	return nil, ctlNext
}}

// testSetenv is t.Setenv.
func testSetenv(t *thread, args []Value) (Value, ctl) {
	tp := ptrArg(args[0])
	if t.testBool(tp, "isParallel") {
		return nil, t.stringPanic("testing: t.Setenv called after t.Parallel; cannot set environment variables in parallel tests")
	}
	key, value := args[1].(string), args[2].(string)
	if !validEnvKey(key) {
		t.testLog("cannot set environment variable: setenv: invalid argument", true)
		t.g.top.pc++
		return nil, t.goexit(t.g.top)
	}
	prev, ok := t.lookupEnv(key)
	t.setEnv(key, value, true)
	return nil, t.testCleanup(tp, &Closure{Native: envRestore, Bound: []Value{key, prev, ok}})
}

// testTempDir is t.TempDir: a new directory named as Go names it
// ($TMPDIR/TestName<number>/001), made in the run's files (files.go): a
// function of the run's instructions, so that a run and its replay make
// the same name. Nothing is made on the host, so the cleanup that removes
// it in Go has nothing to do.
func testTempDir(t *thread, args []Value) (Value, ctl) {
	name := t.testNameOf(ptrArg(args[0]))
	if name == "" {
		name = "Test"
	}
	name = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`/\:*?"<>|`, r) {
			return '_'
		}
		return r
	}, name)
	if len(name) > 64 {
		name = name[:64]
	}
	root, ok := t.lookupEnv("TMPDIR")
	if !ok || root == "" {
		root = "/tmp"
	}
	for {
		parent := filepath.Join(root, fmt.Sprintf("%s%d", name, uint32(t.osDraw())))
		e := t.mkdir(parent, 0o700)
		if e == syscall.EEXIST {
			continue
		}
		if e == 0 {
			e = t.mkdir(filepath.Join(parent, "001"), 0o777)
		}
		if e != 0 {
			t.testLog("TempDir: "+e.Error(), true)
			t.g.top.pc++
			return nil, t.goexit(t.g.top)
		}
		return filepath.Join(parent, "001"), ctlNext
	}
}
