package loc

import (
	"go/token"
	"path/filepath"
	"sync"
)

// shortNames maps the file names of a loaded program's file set to the
// names gmc prints for them, where those differ from the base name (see
// package load: the shortest path suffix --target resolves back to the
// same file).
var shortNames sync.Map // *token.FileSet -> map[string]string

// SetShortNames records the printed names of fset's ambiguous files.
func SetShortNames(fset *token.FileSet, names map[string]string) { shortNames.Store(fset, names) }

// ShortName is the printed name of a file of fset: its base name unless
// that is ambiguous for --target, else the shortest path suffix that is
// not.
func ShortName(fset *token.FileSet, filename string) string {
	if m, ok := shortNames.Load(fset); ok {
		if s, ok := m.(map[string]string)[filepath.ToSlash(filename)]; ok {
			return s
		}
	}
	return filepath.Base(filename)
}
