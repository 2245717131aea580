package load

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLoadAbsoluteDir: a directory given by its absolute path is loaded from
// its own module even when it lies outside the current one.
func TestLoadAbsoluteDir(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module outside\n\ngo 1.23\n",
		"a.go":   "package outside\n\nfunc F() int { return 1 }\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := Load(Config{Patterns: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Roots) != 1 || p.Roots[0].Pkg.Path() != "outside" || p.Module != "outside" {
		t.Fatalf("roots %v, module %q", p.Roots, p.Module)
	}
}
