package load

import (
	"go/ast"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Embed is the content of a package-level variable with a //go:embed
// directive, as the go command embeds it: for a string or []byte variable
// the one file its pattern names; for an embed.FS the files and
// directories its patterns name, each directory's name ending in "/", in
// embed's order (by directory, then by name within it).
type Embed struct {
	Files []EmbedFile
}

// EmbedFile is one file (or directory: Name ends in "/", no Data) of an
// Embed, named by its slash-separated path relative to the package.
type EmbedFile struct {
	Name string
	Data string
}

// findEmbeds reads the //go:embed variables of the packages outside GOROOT
// reachable from roots, keyed "pkgpath.Name". The go command already
// checked the patterns (a pattern that matches nothing is a build error),
// so a file that cannot be read here is left out.
func findEmbeds(roots []*packages.Package) map[string]*Embed {
	out := map[string]*Embed{}
	packages.Visit(roots, nil, func(p *packages.Package) {
		if len(p.EmbedFiles) == 0 || len(p.GoFiles) == 0 {
			return
		}
		dir := filepath.Dir(p.GoFiles[0])
		for _, f := range p.Syntax {
			for _, d := range f.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok {
					continue
				}
				for _, spec := range gd.Specs {
					vs, ok := spec.(*ast.ValueSpec)
					if !ok || len(vs.Names) != 1 {
						continue
					}
					doc := vs.Doc
					if doc == nil && len(gd.Specs) == 1 {
						doc = gd.Doc
					}
					pats := embedPatterns(doc)
					if pats == nil {
						continue
					}
					out[p.PkgPath+"."+vs.Names[0].Name] = &Embed{Files: embedFiles(dir, pats)}
				}
			}
		}
	})
	return out
}

// embedPatterns are the patterns of the //go:embed lines of doc (nil:
// none), quoted ones unquoted.
func embedPatterns(doc *ast.CommentGroup) []string {
	if doc == nil {
		return nil
	}
	var pats []string
	for _, c := range doc.List {
		rest, ok := strings.CutPrefix(c.Text, "//go:embed")
		if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			continue
		}
		for rest = strings.TrimSpace(rest); rest != ""; rest = strings.TrimSpace(rest) {
			var pat string
			if rest[0] == '"' || rest[0] == '`' {
				q, err := strconv.QuotedPrefix(rest)
				if err != nil {
					return pats
				}
				pat, _ = strconv.Unquote(q)
				rest = rest[len(q):]
			} else {
				i := strings.IndexAny(rest, " \t")
				if i < 0 {
					i = len(rest)
				}
				pat, rest = rest[:i], rest[i:]
			}
			pats = append(pats, pat)
		}
	}
	return pats
}

// embedFiles resolves patterns in dir as the go command does: a file is
// embedded, a directory with the files below it except those whose names
// start with "." or "_" (unless the pattern starts with "all:"), and every
// directory on the way is listed.
func embedFiles(dir string, pats []string) []EmbedFile {
	files := map[string]string{}
	dirs := map[string]bool{}
	addParents := func(name string) {
		for d := path.Dir(name); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	for _, pat := range pats {
		all := strings.HasPrefix(pat, "all:")
		pat = strings.TrimPrefix(pat, "all:")
		matches, _ := filepath.Glob(filepath.Join(dir, filepath.FromSlash(pat)))
		for _, m := range matches {
			rel, err := filepath.Rel(dir, m)
			if err != nil {
				continue
			}
			name := filepath.ToSlash(rel)
			fi, err := os.Stat(m)
			if err != nil {
				continue
			}
			if !fi.IsDir() {
				if b, err := os.ReadFile(m); err == nil {
					files[name] = string(b)
					addParents(name)
				}
				continue
			}
			dirs[name] = true
			addParents(name)
			filepath.WalkDir(m, func(p string, d os.DirEntry, err error) error {
				if err != nil || p == m {
					return nil
				}
				if base := d.Name(); !all && (strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_")) {
					if d.IsDir() {
						return filepath.SkipDir
					}
					return nil
				}
				r, _ := filepath.Rel(dir, p)
				r = filepath.ToSlash(r)
				if d.IsDir() {
					dirs[r] = true
				} else if d.Type().IsRegular() {
					if b, err := os.ReadFile(p); err == nil {
						files[r] = string(b)
					}
				}
				return nil
			})
		}
	}
	var out []EmbedFile
	for name, data := range files {
		out = append(out, EmbedFile{Name: name, Data: data})
	}
	for d := range dirs {
		out = append(out, EmbedFile{Name: d + "/"})
	}
	sort.Slice(out, func(i, j int) bool {
		di, ei := splitEmbedName(out[i].Name)
		dj, ej := splitEmbedName(out[j].Name)
		if di != dj {
			return di < dj
		}
		return ei < ej
	})
	return out
}

// splitEmbedName splits a name of an embed.FS into its directory and
// element, as package embed sorts its files.
func splitEmbedName(name string) (dir, elem string) {
	name = strings.TrimSuffix(name, "/")
	i := strings.LastIndexByte(name, '/')
	if i < 0 {
		return ".", name
	}
	return name[:i], name[i+1:]
}
