package load

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// This file keeps the pruned standard library across runs. Pruning needs
// every file of the program parsed whole (preparse.go), which is most of
// what loading a test costs; what it leaves of each standard-library file
// is a function of the program's files and gmc's own code. A load that
// prunes records, per standard-library file it type-checked, the text the
// pruned syntax tree covers: the file with every byte outside its remaining
// declarations blanked (newlines kept), written as the spans of the file to
// blank, plus the imports renamed to _. The entry is keyed by gmc's build ID, the build flags, go list's
// import graph and the SHA-256 of every file of the graph, so it is
// never stale: any change to a file, to the graph or to gmc is another
// key. A later load of the same program parses each standard-library file
// from its blanked text, without the blanks that end a line, and renames
// the imports: the same syntax trees (every line and column the same; the
// offsets within the file differ), without parsing what the pruner drops.
//
// The entries live in $GMC_CACHE (default: os.UserCacheDir()/gmc; "off"
// turns the cache off), one file per key, written to a temporary file and
// renamed, so concurrent runs read whole entries or none; a damaged entry
// is ignored. Entries unused for a week are removed (at most once a day).

// cacheStats counts the loads that hit the cache and the entries
// stored (for tests).
var cacheStats struct{ hits, stores atomic.Int64 }

// cacheVersion changes when the entries' format or meaning does.
const cacheVersion = "gmc-load-cache-1"

// cacheDir returns the directory of the load cache, or "" when it is off.
func cacheDir() string {
	d := os.Getenv("GMC_CACHE")
	if d == "off" {
		return ""
	}
	if d == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		d = filepath.Join(base, "gmc")
	}
	return filepath.Join(d, "load")
}

// cachedLoad is a cache entry: what a pruning load left of the program's
// standard-library files.
type cachedLoad struct {
	stripped []string               // Program.stripped
	pruned   []string               // preparsed.pruned
	files    map[string]*cachedFile // by file name
}

// cachedFile is what the pruned syntax tree of one file covers.
type cachedFile struct {
	blank   []int // pairs of offsets [start, end): blank every byte but '\n'
	renames []int // indexes in File.Imports of the imports renamed to _
}

// sources are the contents of the graph's files, read once for the key
// and then parsed from (so the key names exactly what is parsed).
type sources struct {
	data map[string][]byte
	bad  map[string]bool // not readable: left to the parser's error
}

// readSources reads every file of the graph in parallel.
func readSources(g *importGraph) *sources {
	var names []string
	seen := map[string]bool{}
	for _, p := range g.all {
		for _, f := range p.GoFiles {
			if !seen[f] {
				seen[f] = true
				names = append(names, f)
			}
		}
	}
	s := &sources{data: make(map[string][]byte, len(names)), bad: map[string]bool{}}
	var mu sync.Mutex
	inParallel(names, func(name string) {
		src, err := os.ReadFile(name)
		mu.Lock()
		if err != nil {
			s.bad[name] = true
		} else {
			s.data[name] = src
		}
		mu.Unlock()
	})
	return s
}

// inParallel calls do for each of names on GOMAXPROCS goroutines, and
// returns when every call has.
func inParallel(names []string, do func(name string)) {
	var wg sync.WaitGroup
	next := make(chan string)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for name := range next {
				do(name)
			}
		}()
	}
	for _, n := range names {
		next <- n
	}
	close(next)
	wg.Wait()
}

// read returns a file's contents, read before or now.
func (s *sources) read(name string) ([]byte, error) {
	if s != nil {
		if src, ok := s.data[name]; ok {
			return src, nil
		}
	}
	return os.ReadFile(name)
}

// cacheKey is the key of a pruning load of graph g: everything the pruned
// files depend on. ok is false when a file cannot be read or gmc's
// identity is unknown (no caching).
func cacheKey(g *importGraph, buildFlags []string, src *sources, external []string) (key string, ok bool) {
	id := selfID()
	if id == "" || len(src.bad) > 0 {
		return "", false
	}
	h := sha256.New()
	w := func(ss ...string) {
		for _, s := range ss {
			h.Write(binary.AppendUvarint(nil, uint64(len(s))))
			h.Write([]byte(s))
		}
	}
	w(cacheVersion, id, runtime.GOROOT(), gorootSrc)
	w(buildFlags...)
	w("graph")
	for _, p := range g.all {
		w("pkg", p.ID, p.PkgPath, p.Name)
		if p.Module == nil {
			w("std")
		} else {
			w("module", p.Module.Path)
		}
		if g.named[p.ID] {
			w("named")
		}
		if g.dead[p.PkgPath] {
			w("dead")
		}
		var imps []string
		for path, q := range p.Imports {
			imps = append(imps, path+"="+q.ID)
		}
		sort.Strings(imps)
		w(imps...)
		w("files")
		for _, n := range p.GoFiles {
			if !inGoroot(n) {
				w(n) // what the pruner takes from it is in external
				continue
			}
			b, ok := src.data[n]
			if !ok {
				return "", false
			}
			sum := sha256.Sum256(b)
			w(n, string(sum[:]))
		}
	}
	w("external")
	w(external...)
	return hex.EncodeToString(h.Sum(nil)), true
}

// inGoroot reports whether the file name is under GOROOT/src.
func inGoroot(name string) bool {
	return strings.HasPrefix(filepath.ToSlash(name), gorootSrc)
}

// externalKey parses the graph's files outside GOROOT (with parse, which
// load's type checking then takes) and lists, sorted, what the pruner
// takes from them: their pruneEvents and the package-level names their
// packages declare. It returns nil when one does not parse.
func externalKey(fset *token.FileSet, g *importGraph, src *sources, parse func(*token.FileSet, string, []byte) (*ast.File, error)) ([]string, map[string]*ast.File) {
	pathNames := map[string]string{}
	for _, p := range g.all {
		pathNames[p.PkgPath] = p.Name
	}
	given := map[string]*ast.File{}
	set := map[string]bool{}
	for _, p := range g.all {
		names := map[string]bool{}
		for _, fn := range p.GoFiles {
			if inGoroot(fn) {
				continue
			}
			f := given[fn]
			if f == nil {
				b, ok := src.data[fn]
				if !ok {
					return nil, nil
				}
				var err error
				if f, err = parse(fset, fn, b); err != nil || f == nil {
					return nil, nil
				}
				given[fn] = f
				for _, e := range externalEvents(f, fileImports(f, p, pathNames)) {
					set[e.String()] = true
				}
			}
			declNames(f, names)
		}
		for n := range names {
			set["T "+p.PkgPath+" "+n] = true
		}
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out, given
}

var selfIDOnce = sync.OnceValue(readSelfID)

func selfID() string { return selfIDOnce() }

// readSelfID returns gmc's Go build ID (which changes with its code), or,
// when the executable has none, its path, size and modification time.
func readSelfID() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 64<<10)
	n, _ := f.Read(head)
	head = head[:n]
	const marker = "\xff Go build ID: \""
	if i := bytes.Index(head, []byte(marker)); i >= 0 {
		rest := head[i+len(marker):]
		if j := bytes.IndexByte(rest, '"'); j > 0 {
			return string(rest[:j])
		}
	}
	fi, err := f.Stat()
	if err != nil {
		return ""
	}
	return exe + "|" + fi.ModTime().UTC().Format(time.RFC3339Nano) + "|" + strconv.FormatInt(fi.Size(), 10)
}

// recordFile returns what f, parsed from parsed (orig blanked), covers.
func recordFile(fset *token.FileSet, f *ast.File, orig, parsed []byte) (*cachedFile, bool) {
	tf := fset.File(f.Package)
	if tf == nil || tf.Size() != len(parsed) || len(orig) != len(parsed) {
		return nil, false
	}
	// the ranges of parsed the tree covers, in order
	var keep [][2]int
	ok := true
	add := func(from, to token.Pos) {
		a, b := tf.Offset(from), tf.Offset(to)
		if len(keep) > 0 && a < keep[len(keep)-1][1] || b < a {
			ok = false
		}
		keep = append(keep, [2]int{a, b})
	}
	add(token.Pos(tf.Base()), f.Name.End()) // the build lines (GoVersion) and the package clause
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			add(d.Pos(), d.Type.End())
			switch {
			case d.Body == nil:
			case len(d.Body.List) == 0:
				add(d.Body.Lbrace, d.Body.Lbrace+1)
				add(d.Body.Rbrace, d.Body.Rbrace+1)
			default:
				add(d.Body.Lbrace, d.Body.End())
			}
		case *ast.GenDecl:
			if d.Tok == token.IMPORT || !d.Lparen.IsValid() {
				add(d.Pos(), d.End())
				continue
			}
			add(d.Pos(), d.Lparen+1)
			for _, s := range d.Specs {
				add(s.Pos(), s.End())
			}
			add(d.Rparen, d.Rparen+1)
		default:
			return nil, false
		}
	}
	if !ok {
		return nil, false
	}
	cf := &cachedFile{}
	for i, im := range f.Imports {
		if im.Name != nil && im.Name.Name == "_" && !im.Name.NamePos.IsValid() {
			cf.renames = append(cf.renames, i)
		}
	}
	// the text the tree covers is parsed within keep and blank (newlines
	// kept) elsewhere; the spans are its blank runs that blank something
	// of orig
	ki := 0
	text := func(k int) byte {
		for ki < len(keep) && keep[ki][1] <= k {
			ki++
		}
		if ki < len(keep) && keep[ki][0] <= k || parsed[k] == '\n' {
			return parsed[k]
		}
		return ' '
	}
	for k := 0; k < len(parsed); {
		c := text(k)
		if c != ' ' && c != '\n' {
			k++
			continue
		}
		start, differs := k, false
		for ; k < len(parsed); k++ {
			c := text(k)
			if c != ' ' && c != '\n' {
				break
			}
			differs = differs || c != orig[k]
		}
		if differs {
			cf.blank = append(cf.blank, start, k)
		}
	}
	return cf, true
}

// rebuild returns the text a cached file is parsed from: orig with its
// spans blanked (newlines kept), without the blanks that end a line (most of the file: the scanner need
// not skip them). Every line keeps its number and every remaining token
// its column; only the offsets past the first dropped blank move.
func (cf *cachedFile) rebuild(orig []byte) []byte {
	out := make([]byte, 0, len(orig)/2)
	prev := 0
	for i := 0; i+1 < len(cf.blank); i += 2 {
		a, b := cf.blank[i], cf.blank[i+1]
		out = append(out, orig[prev:a]...)
		seg := orig[a:b]
		last := bytes.LastIndexByte(seg, '\n')
		for _, c := range seg[:last+1] {
			if c == '\n' {
				out = append(out, '\n')
			}
		}
		if b < len(orig) && orig[b] != '\n' {
			// a kept token follows on the line: its column stays
			for range len(seg) - (last + 1) {
				out = append(out, ' ')
			}
		}
		prev = b
	}
	return append(out, orig[prev:]...)
}

// encode writes the entry of key.
func (c *cachedLoad) encode(key string) []byte {
	var b []byte
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	ints := func(xs []int) {
		b = binary.AppendUvarint(b, uint64(len(xs)))
		prev := 0
		for _, x := range xs {
			b = binary.AppendUvarint(b, uint64(x-prev)) // ascending
			prev = x
		}
	}
	strs := func(ss []string) {
		b = binary.AppendUvarint(b, uint64(len(ss)))
		for _, s := range ss {
			str(s)
		}
	}
	str(cacheVersion)
	str(key)
	strs(c.stripped)
	strs(c.pruned)
	names := make([]string, 0, len(c.files))
	for n := range c.files {
		names = append(names, n)
	}
	sort.Strings(names)
	b = binary.AppendUvarint(b, uint64(len(names)))
	for _, n := range names {
		str(n)
		ints(c.files[n].blank)
		ints(c.files[n].renames)
	}
	sum := sha256.Sum256(b)
	return append(b, sum[:]...)
}

var errBadEntry = errors.New("bad cache entry")

// decodeEntry reads the entry of key from b.
func decodeEntry(b []byte, key string) (c *cachedLoad, err error) {
	if len(b) < sha256.Size {
		return nil, errBadEntry
	}
	body := b[:len(b)-sha256.Size]
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], b[len(body):]) {
		return nil, errBadEntry
	}
	defer func() {
		if recover() != nil {
			c, err = nil, errBadEntry
		}
	}()
	uv := func() int {
		x, n := binary.Uvarint(body)
		if n <= 0 || x > 1<<40 {
			panic(errBadEntry)
		}
		body = body[n:]
		return int(x)
	}
	count := func() int { // a length: at most what is left
		n := uv()
		if n > len(body) {
			panic(errBadEntry)
		}
		return n
	}
	str := func() string {
		n := count()
		s := string(body[:n])
		body = body[n:]
		return s
	}
	ints := func() []int {
		xs := make([]int, count())
		prev := 0
		for i := range xs {
			prev += uv()
			xs[i] = prev
		}
		return xs
	}
	strs := func() []string {
		ss := make([]string, count())
		for i := range ss {
			ss[i] = str()
		}
		return ss
	}
	if str() != cacheVersion || str() != key {
		return nil, errBadEntry
	}
	c = &cachedLoad{stripped: strs(), pruned: strs(), files: map[string]*cachedFile{}}
	for n := count(); n > 0; n-- {
		name := str()
		c.files[name] = &cachedFile{blank: ints(), renames: ints()}
	}
	return c, nil
}

// lookupCache returns the entry of key in dir, or nil.
func lookupCache(dir, key string) *cachedLoad {
	file := filepath.Join(dir, key)
	b, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	c, err := decodeEntry(b, key)
	if err != nil {
		return nil
	}
	cacheStats.hits.Add(1)
	if fi, err := os.Stat(file); err == nil && time.Since(fi.ModTime()) > time.Hour {
		now := time.Now()
		os.Chtimes(file, now, now) // used: trimCache keeps it
	}
	return c
}

// storeCache writes the entry of key to dir (errors are ignored: the
// cache only saves time).
func storeCache(dir, key string, c *cachedLoad) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return
	}
	tmp, err := os.CreateTemp(dir, "tmp-*")
	if err != nil {
		return
	}
	_, err = tmp.Write(c.encode(key))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(dir, key))
	}
	if err == nil {
		cacheStats.stores.Add(1)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	trimCache(dir)
}

// trimCache removes, at most once a day, the entries (and temporary files
// left by killed runs) unused for a week.
func trimCache(dir string) {
	mark := filepath.Join(dir, "trimmed")
	if fi, err := os.Stat(mark); err == nil && time.Since(fi.ModTime()) < 24*time.Hour {
		return
	}
	os.WriteFile(mark, nil, 0o666)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if e.Name() == "trimmed" || (len(e.Name()) != 2*sha256.Size && !strings.HasPrefix(e.Name(), "tmp-")) {
			continue
		}
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > 7*24*time.Hour {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
