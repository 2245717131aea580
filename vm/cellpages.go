package vm

// Pages. A plain object of cellPageMin cells or more (a large array or a
// slice's backing store whose elements are not numbers: a hash table's
// padded buckets) keeps its cells in pages copied on write, as a packed
// object keeps its bytes (packed.go), and so does the race detector's
// shadow of such an object (race.go): a state that writes one cell, or
// whose access changes one cell's shadow, copies the page table and one
// page, not the object. Without them, each state that wrote, or read
// atomically, maypok86/otter/v2's table of 294,912 cells copied it whole,
// and the copies and their collection took half of the CPU.
//
// A page is written only by the state whose epoch it carries; the others
// share it. Code reads and writes a paged object's cells through the
// accessors of cells.go (Object.cell, setCell, cellRange, setCells,
// refCells), its shadow through those of race.go.

// pageBits is log2 of the entries of a full page.
const pageBits = 9

// cellPageMin is the number of cells from which a plain object is paged.
// Tests lower it to page small objects too.
var cellPageMin = 1 << 12

// page is one page of a paged vector.
type page[T any] struct {
	epoch uint64
	v     []T
}

// paged is a vector of n entries in pages; a nil page holds zero values
// (the shadow's pages are made as they are first written; the cells'
// all exist).
type paged[T any] struct {
	n     int
	pages []*page[T]
}

// cellPages is the cells of a paged object.
type cellPages = paged[Value]

// newPaged makes a vector of n zero entries (no page yet).
func newPaged[T any](n int) *paged[T] {
	return &paged[T]{n: n, pages: make([]*page[T], (n+1<<pageBits-1)>>pageBits)}
}

// newCellPages pages cells (the pages get epoch: the allocating state's;
// they hold the cells' own array).
func newCellPages(cells []Value, epoch uint64) *cellPages {
	cp := newPaged[Value](len(cells))
	for i := range cp.pages {
		lo := i << pageBits
		hi := min(lo+1<<pageBits, len(cells))
		cp.pages[i] = &page[Value]{epoch: epoch, v: cells[lo:hi:hi]}
	}
	return cp
}

func (pv *paged[T]) get(i int) T {
	if pg := pv.pages[i>>pageBits]; pg != nil {
		return pg.v[i&(1<<pageBits-1)]
	}
	var zero T
	return zero
}

// set writes entry i in the state of epoch, copying its page first when
// another state's (or making it).
func (pv *paged[T]) set(i int, v T, epoch uint64) {
	k := i >> pageBits
	pg := pv.pages[k]
	switch {
	case pg == nil:
		pg = &page[T]{epoch: epoch, v: make([]T, min(1<<pageBits, pv.n-k<<pageBits))}
		pv.pages[k] = pg
	case pg.epoch != epoch:
		pg = &page[T]{epoch: epoch, v: append([]T(nil), pg.v...)}
		pv.pages[k] = pg
	}
	pg.v[i&(1<<pageBits-1)] = v
}

// clone copies the page table (for a copy of the object: the pages are
// shared until written).
func (pv *paged[T]) clone() *paged[T] {
	return &paged[T]{n: pv.n, pages: append([]*page[T](nil), pv.pages...)}
}

// values copies out entries [i, j) of a vector whose pages all exist.
func (pv *paged[T]) values(i, j int) []T {
	out := make([]T, 0, j-i)
	for i < j {
		pg := pv.pages[i>>pageBits].v
		lo := i & (1<<pageBits - 1)
		hi := min(len(pg), lo+j-i)
		out = append(out, pg[lo:hi]...)
		i += hi - lo
	}
	return out
}
