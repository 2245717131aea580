package vm_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// TestOSFiles: package os from its source over the syscall natives —
// files written, appended, read back, seeked, stat'ed, listed, walked,
// renamed and removed, temporary files and directories, t.TempDir,
// t.Setenv restored by its cleanup, os.Environ and Unsetenv, the time
// zone database read by time.LoadLocation — in every
// interleaving with the leak and race checks on; a test that reads back
// something else than it wrote fails with its message. Goroutines that
// write files concurrently are no scheduling points of their own and see
// only the files of their own run (the search resumes runs from
// snapshots: were the writes on the host, a resumed run would see a
// directory a later cleanup removed).
func TestOSFiles(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "osfiles")})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GMC_OSFILES_HOST", "good")
	for _, c := range []struct{ entry, fails string }{
		{"TestTempFileRoundTrip", ""},
		{"TestTempDirs", ""},
		{"TestConcurrentFiles", ""},
		{"TestSetenv", ""},
		{"TestEnvFromHost", ""},
		{"TestLoadLocation", ""},
		{"TestCurrentUser", ""},
		{"TestProcessIDs", ""},
		{"TestReadBackFails", `read "written"`},
	} {
		t.Run(c.entry, func(t *testing.T) { checkTestEntry(t, prog, c.entry, c.fails) })
	}
}

// TestOSInputsReplay: the environment a search read is recorded
// (Machine.RecordedOS, a trace's "os"); a replay given the record
// reproduces the failure although the host's environment changed, and
// without it does not.
func TestOSInputsReplay(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "osfiles")})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GMC_OSFILES_HOST", "bad")
	m := vm.New(prog, vm.Options{})
	e, err := m.FindEntry("TestEnvFromHost")
	if err != nil {
		t.Fatal(err)
	}
	res := guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.Exhaustive, MaxStates: 1000})
	if res.Verdict != guide.VerdictError || !strings.Contains(res.Final.Err().Msg, "GMC_OSFILES_HOST is bad") {
		t.Fatalf("verdict %s %s, want the failure", res.Verdict, errString(res.Final.Err()))
	}
	rec := m.RecordedOS()
	if rec == nil || rec.Env["GMC_OSFILES_HOST"] == nil || *rec.Env["GMC_OSFILES_HOST"] != "bad" {
		t.Fatalf("recorded %+v, want GMC_OSFILES_HOST=bad", rec)
	}
	t.Setenv("GMC_OSFILES_HOST", "good")
	for _, c := range []struct {
		name string
		in   *vm.OSInputs
		want bool
	}{{"recorded", rec, true}, {"host", nil, false}} {
		rm := vm.New(prog, vm.Options{OSInputs: c.in})
		final, _, err := trace.Replay(rm, e, res.Choices, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := final.Err() != nil; got != c.want {
			t.Errorf("%s: replay error %s, want an error: %v", c.name, errString(final.Err()), c.want)
		}
	}
}

// TestOSIdentityReplay: os/user.Current and the process's ids give a
// replay the recorded values.
func TestOSIdentityReplay(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "osfiles")})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		entry, fails string
		rec          *vm.OSInputs
	}{
		{"TestCurrentUser", "user is replayed", &vm.OSInputs{User: &vm.OSUser{Uid: "1", Gid: "1", Username: "replayed", HomeDir: "/home/replayed"}}},
		{"TestProcessIDs", "pid is 424242", &vm.OSInputs{IDs: map[string]int{"Getpid": 424242}}},
	} {
		m := vm.New(prog, vm.Options{OSInputs: c.rec})
		e, err := m.FindEntry(c.entry)
		if err != nil {
			t.Fatal(err)
		}
		res := guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.Exhaustive, MaxStates: 1000})
		if res.Verdict != guide.VerdictError || !strings.Contains(res.Final.Err().Msg, c.fails) {
			t.Fatalf("%s: verdict %s %s, want %q", c.entry, res.Verdict, errString(res.Final.Err()), c.fails)
		}
	}
}

// TestSymlinks: symbolic links the program makes, and the working
// directory it moves to (os.Chdir), live in its files (the overlay), never
// on the host: os.Symlink, Readlink, Lstat and Stat, reading and writing
// through a link, a link to a directory and a file made through it,
// filepath.EvalSymlinks, a listing's link entries, rename and removal of a
// link, a dangling link, a loop (ELOOP), relative paths after a Chdir
// through a link, as `go run ./vm/testdata/symlinks` prints (k8s.io/utils'
// path and trace tests stopped at "OS boundary: call of syscall.Symlink"
// and of syscall.Chdir).
func TestSymlinks(t *testing.T) { checkGoRunOutput(t, "testdata/symlinks") }

// TestWorkDirExternalTests: a package of external tests only, checked from
// its module's root (gmc check ./sub), runs in its own directory as go
// test runs it (testdata/xtestdir/sub reads "data.txt"; before, the first
// root had no files and the working directory was gmc's: pelletier/go-toml
// benchmark's TestUnmarshalReferenceFile failed).
func TestWorkDirExternalTests(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: "testdata/xtestdir", Patterns: []string{"./sub"}})
	if err != nil {
		t.Fatal(err)
	}
	m := vm.New(prog, vm.Options{})
	e, err := m.FindEntry("TestRead")
	if err != nil {
		t.Fatal(err)
	}
	s, _, _ := trace.RandomRun(m, e, 1, 1e6, nil)
	if err := s.Err(); err != nil {
		t.Errorf("%s: %s", err.Kind, err.Msg)
	}
}
