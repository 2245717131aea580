package abstract_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gmc-go/gmc/abstract"
	"github.com/gmc-go/gmc/abstract/internal/testprog"
	"github.com/gmc-go/gmc/slice"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/loc"
)

func build(t *testing.T, dir string, targets ...string) (*load.Program, *abstract.System) {
	t.Helper()
	p := testprog.Load(t, filepath.Join("testdata", dir))
	cfg := abstract.Config{Entries: vm.DefaultEntryFuncs(p)}
	for _, spec := range targets {
		l, err := abstract.ParseTarget(p, spec)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Targets = append(cfg.Targets, l)
	}
	sys, err := abstract.Build(slice.New(p.SSA), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p, sys
}

// nodes renders L_α as "kind@line" strings.
func nodes(p *load.Program, sys *abstract.System) map[string]bool {
	out := map[string]bool{}
	for _, l := range sys.Locs() {
		st := abstract.Step{Loc: l, Kind: sys.Nodes[l].Kind, Succ: -1}
		out[st.Text(p.Fset)] = true
	}
	return out
}

func TestAbstractSystem(t *testing.T) {
	tests := []struct {
		dir     string
		targets []string
		nodes   []string // L_α, by hand
		trace   []string // the first trace set, one trace per target
	}{{
		// Fig. 2.2/2.3: l0 = start of thread A, l1 = lock, l2 = call check,
		// l3 = start of check, l4 = the branch (true side), l5 = the target,
		// l6 = unlock; α0 = start of thread B. Go adds main's start, the go
		// statement and the definition e = 1 in NewElement, with its chain.
		dir:     "fig22",
		targets: []string{"main.go:33"},
		nodes: []string{
			"start@25", "acquire@25", "call@26", "entry@32", "branch@32", "target@33", "release@27",
			"start@38",
			"start+call@47", "go@49", "entry@17", "def@17",
		},
		trace: []string{"start@25 acquire@25 call@26 entry@32 branch@32/0 target@33"},
	}, {
		// Through a closure started by go and an interface method call
		// resolved by VTA to strict.Check (not lax.Check).
		dir:     "iface",
		targets: []string{"main.go:13"},
		nodes: []string{
			"entry@11", "branch@12", "target@13",
			"start+def@24", "def@25", "go@30",
			"entry@27", "call@27", "start@31", "call@31",
		},
		trace: []string{"start@31 call@31 entry@27 call@27 entry@11 branch@12/0 target@13"},
	}, {
		// Two targets: the inner acquisitions of an AB-BA cycle (marked by
		// //gmc:target); one trace each, from the start of each goroutine
		// (whose first instruction is the outer acquisition).
		dir:     "abba",
		targets: []string{"main.go:11", "main.go:20"},
		nodes: []string{
			"start+acquire@10", "target@11", "release@13",
			"start+acquire@18", "target@20", "release@22",
			"start@27", "go@28", "go@29",
		},
		trace: []string{
			"start+acquire@10 target@11",
			"start+acquire@18 target@20",
		},
	}, {
		// The standard library runs from its source but is opaque to the
		// slice: arg's error path (fmt.Fprintln, strconv.Atoi's result) and
		// the varargs stores of fmt.Sprintf after the target add nothing.
		dir:     "library",
		targets: []string{"main.go:46"},
		nodes: []string{
			"start@31", "def@32", "branch@30", "branch@35", "def@36", "branch@45", "target@46", "start@40",
		},
		trace: []string{"start@31 def@32 branch@30/1 branch@45/0 target@46"},
	}}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			p, sys := build(t, tt.dir, tt.targets...)
			var buf bytes.Buffer
			sets := sys.TraceSets(abstract.Limits{})
			sys.WriteText(&buf, p.Fset, sets)
			got := nodes(p, sys)
			want := map[string]bool{}
			for _, n := range tt.nodes {
				want[n] = true
				if !got[n] {
					t.Errorf("missing abstract location %s", n)
				}
			}
			for n := range got {
				if !want[n] {
					t.Errorf("unexpected abstract location %s", n)
				}
			}
			if len(sets) == 0 {
				t.Fatalf("no trace set\n%s", buf.String())
			}
			for i, tr := range sets[0].Traces {
				if i >= len(tt.trace) || tr.Text(p.Fset) != tt.trace[i] {
					t.Errorf("trace %d = %s\nwant %v", i, tr.Text(p.Fset), tt.trace)
				}
			}
			if t.Failed() {
				t.Log("\n" + buf.String())
			}
		})
	}
}

func TestTargets(t *testing.T) {
	p := testprog.Load(t, filepath.Join("testdata", "abba"))
	sites, err := abstract.CommentTargets(p)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range sites {
		got = append(got, abstract.Position(p.Fset, s.Loc))
	}
	if want := "[main.go:11:8 main.go:20:8]"; fmt.Sprint(got) != want {
		t.Errorf("//gmc:target comments = %v, want %s", got, want)
	}
	for _, tt := range []struct{ spec, want string }{
		{"main.go:11", "main.go:11:8"},
		{"abba/main.go:28", "main.go:28:2"},
		{"main.go:8", "main.go:8: no statement on this line; name a line with code"},
		{"nosuch.go:3", "nosuch.go:3: no such file in the program"},
		{"main.go", `gmc: bad target "main.go": want file.go:LINE`},
	} {
		l, err := abstract.ParseTarget(p, tt.spec)
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = abstract.Position(p.Fset, l)
		}
		if got != tt.want {
			t.Errorf("ParseTarget(%q) = %q, want %q", tt.spec, got, tt.want)
		}
	}
	// files outside the root package: by path suffix or import path; a
	// base name two packages share is refused with both
	p3 := testprog.Load(t, filepath.Join("testdata", "nested"))
	for _, tt := range []struct{ spec, want, file string }{
		{"inner/util.go:8", "inner/util.go:8:2", "inner/util.go"},
		{"github.com/gmc-go/gmc/abstract/testdata/nested/other/util.go:8", "other/util.go:8:2", "other/util.go"},
		{"main.go:11", "main.go:11:11", "nested/main.go"},
		{"util.go:8", "ambiguous", ""},
	} {
		l, err := abstract.ParseTarget(p3, tt.spec)
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = abstract.Position(p3.Fset, l)
			if !strings.HasSuffix(p3.Fset.Position(l.Pos()).Filename, tt.file) {
				t.Errorf("ParseTarget(%q) resolved to %s", tt.spec, p3.Fset.Position(l.Pos()))
			}
			// every printed location is a target that resolves back to it
			printed := got[:strings.LastIndexByte(got, ':')]
			if back, err := abstract.ParseTarget(p3, printed); err != nil || back != l {
				t.Errorf("ParseTarget(%q) (printed for %q) = %v, %v; want %v", printed, tt.spec, back, err, l)
			}
		}
		if !strings.Contains(got, tt.want) {
			t.Errorf("ParseTarget(%q) = %q, want %q", tt.spec, got, tt.want)
		}
	}
	p2 := testprog.Load(t, filepath.Join("testdata", "iface"))
	ps := abstract.PanicSites(p2, false)
	if len(ps) != 1 || abstract.Position(p2.Fset, ps[0].Loc) != "main.go:13:8" {
		t.Errorf("panic sites = %v, want one at main.go:13:8", ps)
	}
}

// TestBlockingSites: the blocking operations of the goroutines main starts
// (locks and sends), not main's own receives.
func TestBlockingSites(t *testing.T) {
	p := testprog.Load(t, filepath.Join("testdata", "abba"))
	sp := slice.New(p.SSA)
	main := p.Roots[0].Func("main")
	var got []string
	for _, s := range abstract.BlockingSites(p, sp, main) {
		got = append(got, abstract.Position(p.Fset, s.Loc)+" "+s.Msg)
	}
	want := "[main.go:10:8 sync.Mutex.Lock main.go:11:8 sync.Mutex.Lock main.go:14:7 chan send " +
		"main.go:18:8 sync.Mutex.Lock main.go:20:8 sync.Mutex.Lock main.go:23:7 chan send]"
	if fmt.Sprint(got) != want {
		t.Errorf("blocking sites = %v,\nwant %s", got, want)
	}
}

// TestBuildStopped: a construction whose Stop channel is closed ends with
// ErrStopped (a plan whose time is over), one left open completes.
func TestBuildStopped(t *testing.T) {
	p := testprog.Load(t, filepath.Join("testdata", "fig22"))
	l, err := abstract.ParseTarget(p, "main.go:33")
	if err != nil {
		t.Fatal(err)
	}
	open, closed := make(chan struct{}), make(chan struct{})
	close(closed)
	cfg := abstract.Config{Entries: vm.DefaultEntryFuncs(p), Targets: []loc.Loc{l}}
	cfg.Stop = closed
	if sys, err := abstract.Build(slice.New(p.SSA), cfg); err != abstract.ErrStopped || sys != nil {
		t.Fatalf("Build with Stop closed = %v, %v; want nil, ErrStopped", sys, err)
	}
	cfg.Stop = open
	if sys, err := abstract.Build(slice.New(p.SSA), cfg); err != nil || len(sys.Locs()) == 0 {
		t.Fatalf("Build with Stop open = %v, %v; want a system", sys, err)
	}
}
