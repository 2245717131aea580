package vm_test

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// TestListEntries: a package's entries are its tests, fuzz targets and the
// functions its init registers by name, sorted; Select picks them by
// regular expression or "all", and rejects patterns that match nothing.
func TestListEntries(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "entries", "pkg")})
	if err != nil {
		t.Fatal(err)
	}
	list := vm.ListEntries(prog)
	if got, want := fmt.Sprint(list), "[{Alpha registered} {Beta registered} {FuzzBeta fuzz} {TestAlphaRuns test} {TestGamma test}]"; got != want {
		t.Errorf("List = %s, want %s", got, want)
	}
	cases := []struct {
		pattern string
		want    string // names, or "error: ..." (a substring of the error)
	}{
		{"all", "Alpha Beta FuzzBeta TestAlphaRuns TestGamma"},
		{"Alpha", "Alpha TestAlphaRuns"},
		{"^Test", "TestAlphaRuns TestGamma"},
		{"Beta$", "Beta FuzzBeta"},
		{"Nope", "error: matches none of the 5 entries"},
		{"(", "error: neither an entry nor a regular expression"},
	}
	for _, c := range cases {
		sel, err := vm.SelectEntries(list, c.pattern)
		got := ""
		if err != nil {
			got = "error: " + err.Error()
		} else {
			var names []string
			for _, e := range sel {
				names = append(names, e.Name)
			}
			got = strings.Join(names, " ")
		}
		if !strings.HasPrefix(c.want, "error: ") && got != c.want || strings.HasPrefix(c.want, "error: ") && !strings.Contains(got, strings.TrimPrefix(c.want, "error: ")) {
			t.Errorf("Select(%q) = %q, want %q", c.pattern, got, c.want)
		}
	}
}

// TestListGoKer: the GoKer kernels that ship with Go are registered entries.
func TestListGoKer(t *testing.T) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "src", "runtime", "testdata", "testgoroutineleakprofile", "goker")
	prog, err := load.Load(load.Config{Dir: dir})
	if err != nil {
		t.Skipf("GoKer kernels not loadable: %v", err)
	}
	list := vm.ListEntries(prog)
	if len(list) < 63 {
		t.Errorf("%d entries, want the 63 or more kernels", len(list))
	}
	sel, err := vm.SelectEntries(list, "^Cockroach")
	if err != nil || len(sel) < 10 {
		t.Fatalf("Select(^Cockroach) = %v, %v", sel, err)
	}
	for _, e := range sel {
		if e.Kind != vm.ListedRegistered || !strings.HasPrefix(e.Name, "Cockroach") {
			t.Errorf("entry %+v", e)
		}
	}
}

// TestResolveEntries: without a name every test and fuzz target; a name
// FindEntry resolves is that entry, listed with its kind; anything else
// is a pattern over the list.
func TestResolveEntries(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "entries", "pkg")})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ entry, want string }{
		{"", "[{FuzzBeta fuzz} {TestAlphaRuns test} {TestGamma test}]"},
		{"TestGamma", "[{TestGamma test}]"},
		{"Alpha", "[{Alpha registered}]"},
		{"^Test", "[{TestAlphaRuns test} {TestGamma test}]"},
		{"Nope", "error"},
	} {
		sel, err := vm.ResolveEntries(prog, c.entry)
		got := fmt.Sprint(sel)
		if err != nil {
			got = "error"
		}
		if got != c.want {
			t.Errorf("ResolveEntries(%q) = %s (%v), want %s", c.entry, got, err, c.want)
		}
	}
}
