// Package osfiles has tests that use the real file system and the
// environment (vm TestOSFiles, TestOSInputsReplay).
package osfiles

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"io/ioutil"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestTempFileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(p, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString("world\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); !errors.Is(err, os.ErrClosed) {
		t.Fatalf("second close: %v", err)
	}
	b, err := os.ReadFile(p)
	if err != nil || string(b) != "hello\nworld\n" {
		t.Fatalf("ReadFile: %q %v", b, err)
	}
	r, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Seek(6, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(r)
	if string(rest) != "world\n" {
		t.Fatalf("after Seek: %q", rest)
	}
	fi, err := os.Stat(p)
	if err != nil || fi.Size() != 12 || fi.IsDir() || fi.Name() != "a.txt" || fi.Mode().Perm() != 0o644 {
		t.Fatalf("Stat: %v %v", fi, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "none")); !os.IsNotExist(err) || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Stat of a missing file: %v", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); !os.IsExist(err) {
		t.Fatalf("second Mkdir: %v", err)
	}
	if err := os.Rename(p, filepath.Join(dir, "sub", "b.txt")); err != nil {
		t.Fatal(err)
	}
	tf, err := ioutil.TempFile(dir, "tmp*.log")
	if err != nil {
		t.Fatal(err)
	}
	tf.WriteString("x")
	tf.Close()
	var walked []string
	filepath.Walk(dir, func(path string, info fs.FileInfo, err error) error {
		rel, _ := filepath.Rel(dir, path)
		if strings.HasPrefix(rel, "tmp") && strings.HasSuffix(rel, ".log") {
			rel = "tmp*.log"
		}
		walked = append(walked, rel)
		return err
	})
	if want := []string{".", "sub", "sub/b.txt", "tmp*.log"}; !slices.Equal(walked, want) {
		t.Fatalf("Walk: %v, want %v", walked, want)
	}
	es, err := os.ReadDir(dir)
	if err != nil || len(es) != 2 || es[0].Name() != "sub" || !es[0].IsDir() {
		t.Fatalf("ReadDir: %v %v", es, err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "sub")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "sub")); !os.IsNotExist(err) {
		t.Fatalf("after RemoveAll: %v", err)
	}
}

// TestTempDirs: os.MkdirTemp and ioutil.TempDir make distinct
// directories; os.Remove removes an empty one.
func TestTempDirs(t *testing.T) {
	a, err := os.MkdirTemp("", "gmcosfiles")
	if err != nil {
		t.Fatal(err)
	}
	b, err := ioutil.TempDir("", "gmcosfiles")
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(b)
	if a == b {
		t.Fatalf("same directory %s", a)
	}
	if err := os.Remove(a); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(a); !os.IsNotExist(err) {
		t.Fatalf("after Remove: %v", err)
	}
}

// TestConcurrentFiles: goroutines write files of their own; no race, no
// failure in any interleaving.
func TestConcurrentFiles(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := filepath.Join(dir, string(rune('a'+i)))
			if err := os.WriteFile(name, []byte(name), 0o600); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for i := 0; i < 2; i++ {
		name := filepath.Join(dir, string(rune('a'+i)))
		if b, err := os.ReadFile(name); err != nil || string(b) != name {
			t.Fatalf("%s: %q %v", name, b, err)
		}
	}
}

// TestReadBackFails reads back something else than it wrote.
func TestReadBackFails(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	os.WriteFile(p, []byte("written"), 0o600)
	b, _ := os.ReadFile(p)
	if string(b) != "expected" {
		t.Fatalf("read %q", b)
	}
}

func TestSetenv(t *testing.T) {
	t.Setenv("GMC_OSFILES_A", "1")
	if v := os.Getenv("GMC_OSFILES_A"); v != "1" {
		t.Fatalf("Getenv: %q", v)
	}
	t.Run("sub", func(t *testing.T) {
		t.Setenv("GMC_OSFILES_A", "2")
		os.Unsetenv("GMC_OSFILES_B")
		if v, ok := os.LookupEnv("GMC_OSFILES_A"); v != "2" || !ok {
			t.Fatalf("LookupEnv in the subtest: %q %v", v, ok)
		}
	})
	if v := os.Getenv("GMC_OSFILES_A"); v != "1" {
		t.Fatalf("after the subtest's cleanup: %q", v)
	}
	if !slices.Contains(os.Environ(), "GMC_OSFILES_A=1") {
		t.Fatal("Environ has not GMC_OSFILES_A=1")
	}
	os.Unsetenv("GMC_OSFILES_A")
	if _, ok := os.LookupEnv("GMC_OSFILES_A"); ok {
		t.Fatal("set after Unsetenv")
	}
}

// TestEnvFromHost fails when the host's GMC_OSFILES_HOST is "bad" (vm
// TestOSInputsReplay).
func TestEnvFromHost(t *testing.T) {
	if os.Getenv("GMC_OSFILES_HOST") == "bad" {
		t.Fatal("GMC_OSFILES_HOST is bad")
	}
}

// TestLoadLocation reads the time zone database from the file system.
func TestLoadLocation(t *testing.T) {
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	if got := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC).In(loc).Format("15:04 MST"); got != "14:00 CEST" {
		t.Fatalf("noon UTC in Berlin: %s", got)
	}
}

// TestCurrentUser: os/user.Current is the host's user (recorded); a
// replay given a recorded user named "replayed" fails here.
func TestCurrentUser(t *testing.T) {
	u, err := user.Current()
	if err != nil {
		t.Skip("no current user on this host:", err)
	}
	again, err := user.Current()
	if err != nil || *again != *u || u.Uid == "" || u.HomeDir == "" {
		t.Fatalf("user.Current: %+v then %+v, %v", u, again, err)
	}
	if u.Username == "replayed" {
		t.Fatalf("user is %s", u.Username)
	}
}

// TestProcessIDs: the process's ids are the host's (recorded); a replay
// given a recorded pid of 424242 fails here.
func TestProcessIDs(t *testing.T) {
	pid := os.Getpid()
	if pid <= 0 || os.Getpid() != pid || os.Getppid() < 0 || os.Getuid() < 0 {
		t.Fatalf("pid %d, then %d", pid, os.Getpid())
	}
	if pid == 424242 {
		t.Fatalf("pid is %d", pid)
	}
}
